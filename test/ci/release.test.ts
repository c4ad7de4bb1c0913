import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'

// `npm run version` as a maintainer (or the release workflow's "Version packages" pull request)
// runs it, on a copy of the repository. It needs no registry: the lockfile already holds every
// dependency, and only its version fields change (`npm install --package-lock-only --offline`).
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const copy = mkdtempSync(join(tmpdir(), 'movie-log-release-'))
const read = (file: string) => readFileSync(join(copy, file), 'utf8')
const npm = (...args: string[]) =>
  execFileSync('npm', args, {
    cwd: copy,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    // A registry that cannot answer: the version step must not need one.
    env: { ...process.env, npm_config_registry: 'http://127.0.0.1:9/' },
  })

beforeAll(() => {
  for (const file of ['package.json', 'package-lock.json', 'README.md', 'LICENSE', '.changeset']) {
    cpSync(join(ROOT, file), join(copy, file), { recursive: true })
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'))
  npm('run', 'version')
}, 60_000)
afterAll(() => rmSync(copy, { recursive: true, force: true }))

it('turns the pending changesets into CHANGELOG.md, with package-lock.json in step', () => {
  const { version } = JSON.parse(read('package.json'))
  expect(version).not.toBe('0.0.0')
  const lock = JSON.parse(read('package-lock.json'))
  expect([lock.version, lock.packages[''].version]).toEqual([version, version])
  expect(read('CHANGELOG.md')).toContain(`## ${version}`)
  expect(readdirSync(join(copy, '.changeset')).filter((file) => file.endsWith('.md'))).toEqual([])
})

it('packs the LICENSE and the CHANGELOG.md with the package', () => {
  const [packed] = JSON.parse(npm('pack', '--dry-run', '--json', '--ignore-scripts'))
  const files = (packed.files as { path: string }[]).map((file) => file.path)
  expect(files).toEqual(expect.arrayContaining(['LICENSE', 'CHANGELOG.md', 'README.md']))
  expect(read('LICENSE')).toMatch(/^MIT License/)
  expect(JSON.parse(read('package.json')).license).toBe('MIT')
})
