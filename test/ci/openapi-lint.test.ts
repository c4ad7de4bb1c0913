import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { createOpenApiDocument } from '../../src/http/openapi/document'

// CI's: Redocly, a whole tool, over the document test/openapi.test.ts checks on every npm test.
const folder = mkdtempSync(join(tmpdir(), 'movie-log-openapi-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

it('has no error and no warning from Redocly’s recommended rules', () => {
  const file = join(folder, 'openapi.json')
  writeFileSync(file, JSON.stringify(createOpenApiDocument('/movies'), null, 2))
  const redocly = fileURLToPath(new URL('../../node_modules/.bin/redocly', import.meta.url))
  const output = execFileSync(redocly, ['lint', file, '--format=json'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  })
  const report = JSON.parse(output)
  expect(report.problems).toEqual([])
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
}, 60_000)
