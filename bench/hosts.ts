/**
 * Adds and pages as users mount the log (issue 62): on each host (h3's `serve()`, node:http
 * through h3's `toNodeHandler`, Hono on @hono/node-server, Bun.serve, Deno.serve), movie-log on
 * memory, SQLite and Redis beside bare h3 served by the same host (`bench/hosted.mjs`). Each
 * round starts every server anew; a row's ratio is the median over rounds of its req/s over
 * bare h3's on the same host in the same round, and its cost over bare h3 in µs per request
 * (1e6/rps - 1e6/bare rps): the figure that stays while a faster machine moves the ratio.
 * Servers run unpinned, as users run them (BENCH_PIN=1: servers on CPU 0). Settings:
 * BENCH_HOSTS (`srvx,node,hono,bun,deno`), BENCH_STORES (`memory,SQLite,Redis`), BENCH_ROUNDS (3), BENCH_SECONDS (5), BENCH_NODE (24).
 * Bun and Deno come from `node --import tsx .ci/runtimes.ts fetch`; a host not cached is skipped.
 * On SQLite, after the server is killed (SIGKILL), the file must hold at least every add
 * answered 201 (the seed's, the warm-up's and the run's): a run that lost one fails.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { nodeBinary } from '../.ci/node-lines'
import { runtimeBinary } from '../.ci/runtimes'
import { type LoadResult, load } from './load'
import { median } from './median'
import { onCpu, SERVER_CPU } from './pinning'
import { freePort, startRedis, waitForPort } from './processes'
import { MOVIE, seedOverHttp } from './seed'

const HOSTS = (process.env.BENCH_HOSTS ?? 'srvx,node,hono,bun,deno').split(',')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const STORES = ['memory', 'SQLite', 'Redis'] as const
/** Bare h3 first on each host, then the stores of BENCH_STORES (all three by default). */
const APPS = [
  'bare h3',
  ...STORES.filter((store) => (process.env.BENCH_STORES ?? 'memory,SQLite,Redis').includes(store)),
] as const
const METHODS = ['GET', 'POST'] as const

type App = 'bare h3' | (typeof STORES)[number]
type Method = (typeof METHODS)[number]
/** rounds[host][app][method]: one load result per round. */
type Samples = Map<string, Map<App, Record<Method, LoadResult[]>>>

/** The command that runs hosted.mjs on `host`, or undefined when its runtime is not cached. */
function runner(host: string): [string, string[]] | undefined {
  const script = 'bench/hosted.mjs'
  if (host === 'bun') {
    const bun = runtimeBinary('bun')
    return bun ? [bun, [script]] : undefined
  }
  if (host === 'deno') {
    const deno = runtimeBinary('deno')
    return deno ? [deno, ['run', '-A', script]] : undefined
  }
  const node = nodeBinary(process.env.BENCH_NODE ?? '24') ?? process.execPath
  return [node, [script]]
}

async function startHosted(command: [string, string[]], env: Record<string, string>) {
  const port = await freePort()
  const [file, args] = onCpu(SERVER_CPU, ...command)
  const child: ChildProcess = spawn(file, args, {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  await waitForPort(port, 60)
  return {
    url: `http://127.0.0.1:${port}/movies`,
    stop: async () => {
      child.kill('SIGKILL')
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise((resolve) => child.once('exit', resolve))
      }
    },
  }
}

async function round(samples: Samples, say: (line: string) => void): Promise<void> {
  const redis = await startRedis()
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-hosts-'))
  try {
    for (const host of HOSTS) {
      const command = runner(host)
      if (!command) continue
      for (const app of APPS) {
        const store = {
          'bare h3': 'bare',
          memory: 'memory://',
          SQLite: `sqlite://${join(folder, `${host}.db`)}`,
          Redis: `${redis.url}/${HOSTS.indexOf(host)}`,
        }[app]
        const server = await startHosted(command, { BENCH_HOST: host, BENCH_APP: store })
        let answered = 100
        try {
          await seedOverHttp(server.url, 100)
          const body = JSON.stringify(MOVIE)
          const hostRows = samples.get(host) ?? new Map()
          samples.set(host, hostRows)
          const row = hostRows.get(app) ?? { GET: [], POST: [] }
          hostRows.set(app, row)
          // GET first, while every store holds the same 100 movies; each method warmed up
          // first, so the JIT has seen its path before any figure is taken.
          for (const method of METHODS) {
            const url = `${server.url}${method === 'GET' ? '?limit=100' : ''}`
            const options = { method, body: method === 'POST' ? body : undefined, connections: 32 }
            const warm = await load(url, { ...options, seconds: 1 })
            const result = await load(url, { ...options, seconds: SECONDS })
            if (method === 'POST') answered += warm.requests + result.requests
            row[method].push(result)
            say(`${host} ${app} ${method}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms} ms`)
          }
        } finally {
          await server.stop()
        }
        if (app === 'SQLite') await checkKept(store.slice('sqlite://'.length), answered, host)
      }
    }
  } finally {
    await redis.stop()
    rmSync(folder, { recursive: true, force: true })
  }
}

/** Fails unless the SQLite file at `path` holds at least `answered` movies. */
async function checkKept(path: string, answered: number, host: string): Promise<void> {
  const { default: sqlite3 } = await import('sqlite3')
  const db = new sqlite3.Database(path)
  const kept = await new Promise<number>((done, fail) =>
    db.get<{ n: number }>('SELECT count(*) AS n FROM movie_log_movies', (error, row) =>
      error ? fail(error) : done(row?.n ?? 0),
    ),
  ).finally(() => db.close())
  if (kept < answered) {
    throw new Error(`${host} SQLite: ${answered} adds answered 201, ${kept} in the file`)
  }
}

/** The table: a row per host and store, medians over rounds of per-round figures. */
export function hostsTable(samples: Samples): string {
  const lines = [
    '| host | store | GET req/s | GET ratio | GET p99 ms | POST req/s | POST ratio | POST p99 ms | POST µs over bare h3 | POST ratio per round |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ]
  for (const [host, rows] of samples) {
    const bare = rows.get('bare h3')
    for (const [app, row] of rows) {
      const cells = [host, app]
      for (const method of METHODS) {
        const ratios = row[method].map((result, at) => result.rps / (bare?.[method][at]?.rps ?? 1))
        cells.push(
          String(Math.round(median(row[method].map((result) => result.rps)))),
          median(ratios).toFixed(2),
          median(row[method].map((result) => result.p99Ms)).toFixed(0),
        )
        if (method === 'POST') {
          const over = row.POST.map((result, at) => {
            const reference = bare?.POST[at]?.rps ?? result.rps
            return 1e6 / result.rps - 1e6 / reference
          })
          cells.push(median(over).toFixed(0), ratios.map((ratio) => ratio.toFixed(2)).join(' / '))
        }
      }
      lines.push(`| ${cells.join(' | ')} |`)
    }
  }
  return lines.join('\n')
}

/** Runs the rounds; the table. */
export async function hostsRun(say: (line: string) => void): Promise<string> {
  const samples: Samples = new Map()
  for (let at = 1; at <= ROUNDS; at++) {
    say(`hosts: round ${at} of ${ROUNDS}`)
    await round(samples, say)
  }
  return hostsTable(samples)
}
