import { execFile } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { tempFolders } from '../_temp'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const VITEST = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url))
const tempFolder = tempFolders()
// Only stops a child vitest that hangs: a slow machine may take long, and still pass.
const HANG_GUARD_MS = 240_000

// Every suite that needs Redis, PostgreSQL, a redis-server (or a cluster of them) of its own, or
// CI's time.
const SERVICE_SUITES = [
  'test/store-redis.test.ts',
  'test/store-postgres.test.ts',
  'test/server-redis.test.ts',
  'test/faults.test.ts',
  'test/faults-postgres.test.ts',
  'test/store-events.test.ts',
]

interface VitestReport {
  success: boolean
  testResults: {
    name: string
    assertionResults: { ancestorTitles: string[]; status: string; failureMessages: string[] }[]
  }[]
}

/**
 * Runs vitest on `files` in a child, on a machine without Redis or PostgreSQL, whose PATH has a
 * `redis-server` that only leaves a mark: `started()` tells whether anything ran it.
 */
async function runBare(files: string[], env: Record<string, string> = {}) {
  const bin = tempFolder('movie-log-bare-')
  const mark = join(bin, 'redis-server-started')
  writeFileSync(join(bin, 'redis-server'), `#!/bin/sh\necho "$@" >> '${mark}'\nexit 1\n`, {
    mode: 0o755,
  })
  const PATH = [bin, dirname(process.execPath)].join(delimiter)
  // MOVIE_LOG_BUILT: this run's dist/ is built; the child must not build it again under us.
  const bare = { PATH, HOME: process.env.HOME ?? '/tmp', MOVIE_LOG_BUILT: '1', ...env }
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [VITEST, 'run', '--reporter=json', ...files],
    // A suite that runs instead of skipping is stopped rather than left behind.
    { cwd: ROOT, env: bare, maxBuffer: 16 * 1024 * 1024, timeout: HANG_GUARD_MS },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }))
  const report: VitestReport = JSON.parse(stdout.slice(stdout.indexOf('{')))
  return { report, started: () => existsSync(mark) }
}

describe('suites that need a service', () => {
  it(
    'are skipped with a one-line reason on a bare machine, without starting a redis-server',
    async () => {
      const { report, started } = await runBare(SERVICE_SUITES)
      expect(report.success).toBe(true)
      expect(report.testResults).toHaveLength(SERVICE_SUITES.length)
      for (const file of report.testResults) {
        expect(file.assertionResults.length, file.name).toBeGreaterThan(0)
        for (const test of file.assertionResults) {
          expect(test.status, file.name).toBe('skipped')
          expect(test.ancestorTitles[0], file.name).toMatch(/\(skipped: [^\n]+\)$/)
        }
      }
      expect(started()).toBe(false)
    },
    HANG_GUARD_MS + 30_000,
  )

  it(
    'fail the run under CI=true when their service is not set',
    async () => {
      const { report } = await runBare(SERVICE_SUITES.slice(0, 2), { CI: 'true' })
      expect(report.success).toBe(false)
      const messages = report.testResults.flatMap((file) =>
        file.assertionResults.flatMap((test) => test.failureMessages),
      )
      expect(messages.join('\n')).toMatch(/REDIS_URL: set REDIS_URL to run; CI must run this suite/)
      expect(messages.join('\n')).toMatch(/POSTGRES_URL: set POSTGRES_URL to run/)
    },
    HANG_GUARD_MS + 30_000,
  )
})
