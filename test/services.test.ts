import { execFile } from 'node:child_process'
import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { missing } from './_services'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url))

// Every suite that needs Redis, PostgreSQL, a redis-server of its own, or CI's time.
const SERVICE_SUITES = [
  'test/store-redis.test.ts',
  'test/store-postgres.test.ts',
  'test/server-redis.test.ts',
  'test/faults.test.ts',
  'test/soak.test.ts',
  'test/faults-postgres.test.ts',
  'test/chaos.test.ts',
  'test/store-events.test.ts',
]

interface VitestReport {
  success: boolean
  testResults: {
    name: string
    assertionResults: { ancestorTitles: string[]; status: string; failureMessages: string[] }[]
  }[]
}

/** Runs vitest on `files` in a child, on a machine without Redis, PostgreSQL or redis-server. */
async function runBare(files: string[], env: Record<string, string> = {}): Promise<VitestReport> {
  const bare = { PATH: dirname(process.execPath), HOME: process.env.HOME ?? '/tmp', ...env }
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [VITEST, 'run', '--reporter=json', ...files],
    // A suite that runs instead of skipping is stopped rather than left behind.
    { cwd: ROOT, env: bare, maxBuffer: 16 * 1024 * 1024, timeout: 25_000 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }))
  return JSON.parse(stdout.slice(stdout.indexOf('{')))
}

describe('suites that need a service', () => {
  it('names what is missing, and starts redis-server only where Redis is wanted', () => {
    expect(missing('REDIS_URL', {})).toBe('set REDIS_URL to run')
    expect(missing('POSTGRES_URL', { POSTGRES_URL: 'postgres://x' })).toBeUndefined()
    expect(missing('redis-server', { PATH: '/usr/bin:/bin' })).toMatch(/set REDIS_URL/)
    expect(missing('redis-server', { CI: 'true', PATH: '/nowhere' })).toMatch(/not on PATH/)
    expect(missing('CI', {})).toBe('runs under CI=true')
    expect(missing('CI', { CI: 'true' })).toBeUndefined()
  })

  it('are skipped with a one-line reason on a bare machine, quickly and without spawning', async () => {
    const started = Date.now()
    const report = await runBare(SERVICE_SUITES)
    expect(report.success).toBe(true)
    expect(report.testResults).toHaveLength(SERVICE_SUITES.length)
    for (const file of report.testResults) {
      expect(file.assertionResults.length, file.name).toBeGreaterThan(0)
      for (const test of file.assertionResults) {
        expect(test.status, file.name).toBe('skipped')
        expect(test.ancestorTitles[0], file.name).toMatch(/\(skipped: [^\n]+\)$/)
      }
    }
    expect(Date.now() - started).toBeLessThan(20_000)
  })

  it('fail the run under CI=true when their service is not set', async () => {
    const report = await runBare(SERVICE_SUITES.slice(0, 2), { CI: 'true' })
    expect(report.success).toBe(false)
    const messages = report.testResults.flatMap((file) =>
      file.assertionResults.flatMap((test) => test.failureMessages),
    )
    expect(messages.join('\n')).toMatch(/REDIS_URL: set REDIS_URL to run; CI must run this suite/)
    expect(messages.join('\n')).toMatch(/POSTGRES_URL: set POSTGRES_URL to run/)
  })
})
