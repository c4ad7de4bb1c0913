import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

// `npm run contract`: Portman's tests generated from the served document, run by newman.
it('passes the contract tests Portman generates from the OpenAPI document, fuzzing included', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'test/contract/run.ts'],
    { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
  )
  const counts = (row: string) =>
    new RegExp(`│\\s+${row} │\\s+(\\d+) │\\s+(\\d+) │`).exec(stdout)?.slice(1).map(Number)
  const [requests = 0, failedRequests] = counts('requests') ?? []
  const [assertions = 0, failedAssertions] = counts('assertions') ?? []
  expect(failedRequests).toBe(0)
  expect(failedAssertions).toBe(0)
  // Every operation and each fuzzed variation ran: a run that stopped early has fewer.
  expect(requests).toBeGreaterThanOrEqual(20)
  expect(assertions).toBeGreaterThanOrEqual(59)
}, 120_000)
