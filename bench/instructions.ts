/**
 * `npm run bench:instructions`: instructions per request, counted by valgrind's callgrind, for
 * bare h3, the core in h3, the server and the built package mounted in h3 (memory store). Unlike req/s, the count does not depend on
 * what else the machine is doing, so it shows what a change costs. Needs valgrind.
 * Settings: INSTRUCTIONS_METHOD (POST), INSTRUCTIONS_REQUESTS (6000), INSTRUCTIONS_WARMUP (4000),
 * INSTRUCTIONS_TARGETS (all; else comma-separated parts of target names, e.g. `bare,memory`).
 *
 * Each target runs twice under callgrind, with N and N + INSTRUCTIONS_REQUESTS requests after the
 * warm-up; the difference divided by the extra requests is the cost of one request. V8's
 * compiler is left out: when it runs is up to V8, not to the request.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, SERVE, waitForPort } from './processes'
import { MOVIE } from './seed'

const METHOD = (process.env.INSTRUCTIONS_METHOD ?? 'POST') as 'GET' | 'POST'
const EXTRA = Number(process.env.INSTRUCTIONS_REQUESTS ?? 6000)
const WARMUP = Number(process.env.INSTRUCTIONS_WARMUP ?? 4000)
const BASE = 2000
// Functions of V8's compilers and parser, by name.
const COMPILING =
  /compiler::|maglev|Maglev|Scanner|Parser|AstValue|Zone|Compile|interpreter::|Bytecode/

const TARGETS: [string, string[], Record<string, string>][] = [
  ['bare h3', ['bench/bare-h3.mjs'], {}],
  ['h3 with the movie-log core', ['bench/bare-h3-core.ts'], {}],
  ['movie-log memory', SERVE, { MOVIE_LOG_STORE: 'memory://' }],
  // The throughput bench's target: the built package mounted in h3 (`npm run build` first).
  ['movie-log mounted in h3, memory', ['bench/mounted-h3.mjs'], { MOVIE_LOG_STORE: 'memory://' }],
]

/** Sends `count` requests, 8 at a time over kept-alive connections. */
async function send(port: number, method: 'GET' | 'POST', count: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 })
  const body = JSON.stringify(MOVIE)
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const headers = { 'content-type': 'application/json', accept: 'application/json' }
      const req = request({ host: '127.0.0.1', port, path: '/movies', method, agent, headers })
      req.on('response', (response) => response.resume().on('end', resolve))
      req.on('error', reject)
      req.end(method === 'POST' ? body : undefined)
    })
  let left = count
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (left-- > 0) await one()
    }),
  )
  agent.destroy()
}

/** Instructions the target ran, outside V8's compilers, after `requests` requests. */
async function count(args: string[], env: Record<string, string>, requests: number) {
  const port = await freePort()
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-callgrind-'))
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${folder}/out`,
      process.execPath,
      '--import',
      'tsx',
      ...args,
    ],
    { env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env }, stdio: 'ignore' },
  )
  await waitForPort(port, 600)
  await send(port, 'POST', 100)
  await send(port, METHOD, WARMUP + requests)
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
  const [out] = readdirSync(folder)
  let annotated: string
  try {
    annotated = execFileSync(
      'callgrind_annotate',
      ['--threshold=100', join(folder, out as string)],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 2 ** 20,
      },
    )
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  let total = 0
  for (const line of annotated.split('\n')) {
    const match = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line)
    if (!match || match[2]?.startsWith('PROGRAM TOTALS') || COMPILING.test(match[2] ?? '')) continue
    total += Number(match[1]?.replaceAll(',', ''))
  }
  return total
}

const only = process.env.INSTRUCTIONS_TARGETS?.split(',')
const rows: [string, number][] = []
for (const [name, args, env] of TARGETS) {
  if (only && !only.some((part) => name.includes(part))) continue
  const before = await count(args, env, BASE)
  const after = await count(args, env, BASE + EXTRA)
  rows.push([name, (after - before) / EXTRA])
  console.log(
    `[instructions] ${name}: ${((after - before) / EXTRA / 1000).toFixed(1)}k per ${METHOD}`,
  )
}
const bare = rows[0]?.[1] ?? Number.NaN
console.log(`\n| target | instructions per ${METHOD} | ratio to bare h3 |\n|---|---|---|`)
for (const [name, perRequest] of rows) {
  console.log(
    `| ${name} | ${(perRequest / 1000).toFixed(1)}k | ${(perRequest / bare).toFixed(2)} |`,
  )
}
