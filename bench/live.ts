/**
 * The live feed (issue 29): time from a POST's 201 to its event at the last of N open feeds, on
 * one server (memory) and across two processes (the feeds on B, the POST to A) on Redis and on
 * PostgreSQL; then the memory an idle feed costs. Run with `npm run bench:live`.
 *
 * Settings: LIVE_ADDS (50 adds per row), LIVE_STREAMS (`100,1000`), BENCH_POSTGRES_ADMIN_URL
 * (default `postgres://postgres@127.0.0.1:5432/postgres`: a database of its own, dropped after).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { connect, type Socket } from 'node:net'
import { loadavg } from 'node:os'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { toNodeHandler } from '../adapters/node'
import { createMovieLog } from '../src/index'
import { aMovie } from '../test/_movies'
import { freePort, rssMiB, startPostgres, startRedis, waitForPort } from './processes'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const ADDS = Number(process.env.LIVE_ADDS ?? 50)
// How long one add may take to reach every feed before it counts as not delivered.
const WAIT_MS = 10_000
const STREAMS = (process.env.LIVE_STREAMS ?? '100,1000').split(',').map(Number)
const ADMIN = process.env.BENCH_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

interface Server {
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

/** `movie-log serve` from source, unpinned, its request log sent nowhere. */
async function serve(store: string): Promise<Server> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      MOVIE_LOG_STORE: store,
      // 1,000 feeds and more: past the default bound of 256 open streams.
      MOVIE_LOG_MAX_STREAMS: '100000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  await waitForPort(port, 60)
  return {
    url: `http://127.0.0.1:${port}/movies`,
    child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}

/**
 * `count` raw feeds on `url` (a socket each, the least a client can cost); `waitFor(text)`
 * resolves with the time the last open one received `text` (or undefined after WAIT_MS).
 * A feed the server ends (its store failed it) is counted in `lost` and waited for no more.
 */
async function openFeeds(url: string, count: number) {
  const { hostname, port, pathname } = new URL(url)
  const sockets: Socket[] = []
  const closed = new Set<Socket>()
  let wanted: { text: string; seen: Set<Socket>; done: (at?: number) => void } | undefined
  const check = () => {
    if (wanted && wanted.seen.size + closed.size >= count) wanted.done(performance.now())
  }
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(Number(port), hostname)
          sockets.push(socket)
          socket.setEncoding('utf8')
          socket.once('error', reject)
          socket.write(
            `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\n\r\n`,
          )
          socket.on('close', () => {
            closed.add(socket)
            resolve()
            check()
          })
          socket.on('data', (chunk: string) => {
            if (chunk.includes('retry:')) resolve()
            if (wanted && !wanted.seen.has(socket) && chunk.includes(wanted.text)) {
              wanted.seen.add(socket)
              check()
            }
          })
        }),
    ),
  )
  return {
    lost: () => closed.size,
    waitFor: (text: string) =>
      new Promise<number | undefined>((resolve) => {
        const timer = setTimeout(() => done(undefined), WAIT_MS)
        const done = (at?: number) => {
          clearTimeout(timer)
          wanted = undefined
          resolve(at)
        }
        wanted = { text, seen: new Set(), done }
      }),
    close: () => {
      for (const socket of sockets) socket.destroy()
    },
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number

/** ADDS adds POSTed to `writer`, each waited for at every feed on `reader`: ms from the 201. */
async function latencies(writer: string, reader: string, streams: number) {
  await fetch(writer, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(aMovie({ title: 'Earlier' })),
  })
  const feeds = await openFeeds(reader, streams)
  const fromCreated: number[] = []
  let timedOut = 0
  try {
    for (let n = 0; n < ADDS + 3; n++) {
      const title = `Live ${randomBytes(6).toString('hex')}`
      const last = feeds.waitFor(title)
      const response = await fetch(writer, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(aMovie({ title })),
      })
      const created = performance.now()
      await response.arrayBuffer()
      if (response.status !== 201) throw new Error(`POST ${response.status}`)
      // The first three warm the path up.
      const at = await last
      if (at === undefined) timedOut++
      else if (n >= 3) fromCreated.push(Math.max(0, at - created))
    }
  } finally {
    feeds.close()
  }
  const sorted = fromCreated.sort((a, b) => a - b)
  const p = (q: number) => (sorted.length ? percentile(sorted, q) : Number.NaN)
  return { p50: p(50), p99: p(99), max: sorted.at(-1) ?? Number.NaN, lost: feeds.lost(), timedOut }
}

/** What 1,000 idle feeds add to a server process's RSS, and (in this process) to the heap. */
async function idleMemory() {
  const server = await serve('memory://')
  try {
    const before = rssMiB(server.child.pid)
    const feeds = await openFeeds(server.url, 1000)
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const processKiB = ((rssMiB(server.child.pid) - before) * 1024) / 1000
    feeds.close()
    // The heap: the handler in this process, the feeds' client sockets here too (an upper bound).
    const gc = (globalThis as { gc?: () => void }).gc
    const local = createServer(toNodeHandler(createMovieLog(), { maxStreams: 100_000 }))
    const port = await freePort()
    await new Promise<void>((resolve) => local.listen(port, '127.0.0.1', resolve))
    gc?.()
    const heapBefore = process.memoryUsage().heapUsed
    const localFeeds = await openFeeds(`http://127.0.0.1:${port}/movies`, 1000)
    gc?.()
    const heapKiB = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1000
    localFeeds.close()
    local.close()
    return { processKiB, heapKiB: gc ? heapKiB : Number.NaN }
  } finally {
    await server.stop()
  }
}

type Latencies = Awaited<ReturnType<typeof latencies>>

export interface LiveRow extends Latencies {
  where: string
  streams: number
}

export interface LiveResult {
  rows: LiveRow[]
  idle: Awaited<ReturnType<typeof idleMemory>>
  loadStart: string
  loadEnd: string
}

const loadNow = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

/** Every row of the live table, then the memory of idle feeds. */
export async function liveRun(log: (line: string) => void = console.error): Promise<LiveResult> {
  const rows: LiveRow[] = []
  const loadStart = loadNow()
  const measure = async (where: string, writer: string, reader: string) => {
    for (const streams of STREAMS) {
      const row = { where, streams, ...(await latencies(writer, reader, streams)) }
      rows.push(row)
      log(`live: ${liveLine(row)}`)
    }
  }

  const one = await serve('memory://')
  try {
    await measure('one process, memory', one.url, one.url)
  } finally {
    await one.stop()
  }

  const redis = await startRedis()
  try {
    const [a, b] = [await serve(redis.url), await serve(redis.url)]
    try {
      await measure('two processes, Redis', a.url, b.url)
    } finally {
      await Promise.all([a.stop(), b.stop()])
    }
  } finally {
    await redis.stop()
  }

  const postgres = await startPostgres(ADMIN).catch((error: unknown) => {
    log(`live: PostgreSQL skipped: ${(error as Error).message}`)
    return undefined
  })
  if (postgres) {
    try {
      const [a, b] = [await serve(postgres.url), await serve(postgres.url)]
      try {
        await measure('two processes, PostgreSQL', a.url, b.url)
      } finally {
        await Promise.all([a.stop(), b.stop()])
      }
    } finally {
      await postgres.drop()
    }
  }

  const idle = await idleMemory()
  return { rows, idle, loadStart, loadEnd: loadNow() }
}

const liveLine = (r: LiveRow) =>
  `| ${r.where} | ${r.streams} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(1)} | ${r.lost} | ${r.timedOut} |`

/** The figures as Markdown. */
export function liveReport({ rows, idle, loadStart, loadEnd }: LiveResult): string {
  const heap = Number.isNaN(idle.heapKiB)
    ? 'heap not measured (run node with --expose-gc)'
    : `${idle.heapKiB.toFixed(1)} KiB of heap after gc, server and client socket in one process`
  return `Time from the POST's 201 to the event at the last feed, ms, over ${ADDS} adds (load average ${loadStart} at start, ${loadEnd} at end):

| where | feeds | p50 | p99 | max | feeds ended by the server | adds not at every feed in 10 s |
|---|---|---|---|---|---|---|
${rows.map(liveLine).join('\n')}

An idle feed: ${idle.processKiB.toFixed(1)} KiB of the server process's RSS (1,000 feeds); ${heap}.`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(liveReport(await liveRun()))
}
