/** One load run against a URL: wrk when installed (lighter on 2 cores), else autocannon. */
import { execFile, spawnSync } from 'node:child_process'
import { unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import autocannon from 'autocannon'
import { LOAD_CPU, onCpu } from './pinning'

export interface LoadResult {
  rps: number
  p99Ms: number
  /** Requests answered in the run. */
  requests: number
}

export interface LoadOptions {
  method: 'GET' | 'POST'
  body?: string
  seconds: number
  connections: number
}

export const loadTool = hasWrk() ? 'wrk -t1' : 'autocannon'

export async function load(url: string, options: LoadOptions): Promise<LoadResult> {
  return hasWrk() ? wrk(url, options) : cannon(url, options)
}

function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined
}

const run = promisify(execFile)
let scripts = 0

// Asynchronous, so that two loads can run at once (the paired runs).
async function wrk(
  url: string,
  { method, body, seconds, connections }: LoadOptions,
): Promise<LoadResult> {
  const script = join(tmpdir(), `movie-log-bench-${process.pid}-${scripts++}.lua`)
  writeFileSync(
    script,
    `wrk.method = "${method}"\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Accept"] = "application/json"\n${body ? `wrk.body = [[${body}]]\n` : ''}`,
  )
  const [command, args] = onCpu(LOAD_CPU, 'wrk', [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    '-s',
    script,
    url,
  ])
  const { stdout: output } = await run(command, args, { encoding: 'utf8' }).finally(() =>
    unlinkSync(script),
  )
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1])
  const p99 = /99%\s+([\d.]+)(us|ms|s)\b/.exec(output)
  const scale = { us: 0.001, ms: 1, s: 1000 }[(p99?.[2] ?? 'ms') as 'us' | 'ms' | 's']
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(output)
  if (errors) throw new Error(`${method} ${url}: ${errors[1]} failed responses\n${output}`)
  const requests = Number(/(\d+) requests in/.exec(output)?.[1])
  return { rps, p99Ms: Number(p99?.[1]) * scale, requests }
}

async function cannon(url: string, { method, body, seconds, connections }: LoadOptions) {
  const result = await autocannon({
    url,
    method,
    body,
    duration: seconds,
    connections,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
  })
  if (result.non2xx > 0) throw new Error(`${method} ${url}: ${result.non2xx} failed responses`)
  return {
    rps: result.requests.average,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
  }
}
