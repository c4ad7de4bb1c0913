/**
 * `npm run bench:import-stall` (issue 55 item 1): `movie-log serve` on a SQLite file while
 * `movie-log import` of STALL_ROWS (100,000) movies writes the same file from another process.
 * A client adds one movie and reads a page of 50 every 20 ms, each request on its own (a slow
 * answer delays no later request); the time of each answer is taken before the import and
 * during it: p50, p99 and the longest (the longest stall). Every add answered 201 is read back
 * after the import (durability). Both processes run the built package (`dist/cli.js`) on each
 * Node line of STALL_NODES (`24,20`: node:sqlite on 24, the sqlite3 package on 20), for each
 * source tree of STALL_ROOTS (default this one; `/before,/after` to compare, each built).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { nodeBinary } from '../.ci/node-lines'
import { freePort, waitForPort } from './processes'

const ROWS = Number(process.env.STALL_ROWS ?? 100_000)
const NODES = (process.env.STALL_NODES ?? '24,20').split(',')
const ROOTS = (process.env.STALL_ROOTS ?? fileURLToPath(new URL('..', import.meta.url))).split(',')
const EVERY_MS = 20
const BEFORE_MS = 2000

export interface StallRow {
  root: string
  node: string
  /** The import's wall time, in seconds, and its exit code. */
  importSeconds: number
  importExit: number | null
  before: Latencies
  adds: Latencies
  reads: Latencies
  /** Adds during the import not answered 201 (a 503 after the busy timeout, say). */
  failedAdds: number
  /** Adds answered 201 that were not there to read after the import. */
  lostAdds: number
}

interface Latencies {
  count: number
  p50: number
  p99: number
  max: number
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN

function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b)
  const max = sorted.at(-1) ?? Number.NaN
  return { count: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max }
}

/** An NDJSON file of `rows` movies, each its own content (so each gets its own id). */
async function writeImport(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file)
  for (let at = 0; at < rows; at++) {
    const day = new Date(Date.UTC(2000, 0, 1) + at * 3_600_000).toISOString().slice(0, 23)
    const line = JSON.stringify({
      title: `Imported movie ${at}`,
      screenedDate: day,
      releaseYear: 1950 + (at % 70),
      imdbLink: `https://www.imdb.com/title/tt${String(1_000_000 + at)}/`,
      notes: 'From the import bench.',
    })
    if (!out.write(`${line}\n`)) await new Promise<void>((done) => out.once('drain', () => done()))
  }
  await new Promise<void>((done, fail) =>
    out.end((error?: Error | null) => (error ? fail(error) : done())),
  )
}

function nodeOf(line: string): string {
  if (line === process.versions.node.split('.')[0]) return process.execPath
  const node = nodeBinary(line)
  if (!node) throw new Error(`no Node ${line} (node --import tsx .ci/node-lines.ts fetch ${line})`)
  return node
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done(child.exitCode)
    else child.once('exit', (code) => done(code))
  })

/** One request, timed: its status, or 0 when it failed to arrive. */
async function timed(
  url: string,
  init?: RequestInit,
): Promise<{ ms: number; status: number; body: string }> {
  const start = performance.now()
  try {
    const response = await fetch(url, init)
    const body = await response.text()
    return { ms: performance.now() - start, status: response.status, body }
  } catch {
    return { ms: performance.now() - start, status: 0, body: '' }
  }
}

async function runOne(root: string, line: string, file: string, folder: string): Promise<StallRow> {
  const node = nodeOf(line)
  const cli = join(root, 'dist', 'cli.js')
  const store = `sqlite://${join(folder, 'movies.sqlite')}`
  const port = await freePort()
  const server = spawn(node, [cli, 'serve'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), MOVIE_LOG_STORE: store },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    await waitForPort(port)
    const base = `http://127.0.0.1:${port}/movies`
    const adds: { ms: number; during: boolean; status: number; id?: string }[] = []
    const reads: { ms: number; during: boolean }[] = []
    let during = false
    let sent = 0
    const inFlight = new Set<Promise<void>>()
    const tick = () => {
      const phase = during
      const add = timed(base, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          title: `Added while importing ${sent++}`,
          screenedDate: '2024-05-01T20:30:00.000',
          releaseYear: 1995,
          imdbLink: 'https://www.imdb.com/title/tt0113277/',
        }),
      }).then(({ ms, status, body }) => {
        const id = status === 201 ? (JSON.parse(body) as { id: string }).id : undefined
        adds.push({ ms, during: phase, status, id })
      })
      const read = timed(`${base}?limit=50`).then(({ ms }) => {
        reads.push({ ms, during: phase })
      })
      for (const request of [add, read]) {
        inFlight.add(request)
        void request.finally(() => inFlight.delete(request))
      }
    }
    const timer = setInterval(tick, EVERY_MS)
    await new Promise((done) => setTimeout(done, BEFORE_MS))
    during = true
    const started = performance.now()
    const importer = spawn(node, [cli, 'import', file, '--store', store], {
      stdio: ['ignore', 'ignore', 'inherit'],
    })
    const importExit = await exited(importer)
    const importSeconds = (performance.now() - started) / 1000
    clearInterval(timer)
    await Promise.all(inFlight)
    const duringAdds = adds.filter((add) => add.during)
    let lostAdds = 0
    for (const { id } of duringAdds) {
      if (id && (await timed(`${base}/${id}`)).status !== 200) lostAdds++
    }
    return {
      root,
      node: `Node ${process.versions.node.split('.')[0] === line ? process.version : line}`,
      importSeconds,
      importExit,
      before: latencies([...adds, ...reads].filter((r) => !r.during).map((r) => r.ms)),
      adds: latencies(duringAdds.map((add) => add.ms)),
      reads: latencies(reads.filter((read) => read.during).map((read) => read.ms)),
      failedAdds: duringAdds.filter((add) => add.status !== 201).length,
      lostAdds,
    }
  } finally {
    server.kill('SIGTERM')
    await exited(server)
  }
}

/** Every root on every Node line, each on a new file. */
export async function importStallRun(
  log: (line: string) => void = console.error,
): Promise<StallRow[]> {
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-import-stall-'))
  try {
    const file = join(folder, 'import.ndjson')
    await writeImport(file, ROWS)
    const rows: StallRow[] = []
    for (const line of NODES) {
      for (const root of ROOTS) {
        const run = mkdtempSync(join(folder, 'run-'))
        log(`import stall: ${ROWS} rows, Node ${line}, ${root}`)
        rows.push(await runOne(root, line, file, run))
        rmSync(run, { recursive: true, force: true })
      }
    }
    return rows
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

const ms = (value: number) => value.toFixed(0)

export function importStallReport(rows: StallRow[]): string {
  const lines = rows.map(
    (r) =>
      `| ${r.node} | ${ROOTS.length > 1 ? `${r.root} | ` : ''}${ms(r.before.p99)} / ${ms(r.before.max)} | ${r.adds.count}: ${ms(r.adds.p50)} / ${ms(r.adds.p99)} / ${ms(r.adds.max)} | ${r.reads.count}: ${ms(r.reads.p50)} / ${ms(r.reads.p99)} / ${ms(r.reads.max)} | ${r.failedAdds} | ${r.lostAdds} | ${r.importSeconds.toFixed(1)} s${r.importExit === 0 ? '' : ` (exit ${r.importExit})`} |`,
  )
  return `\`movie-log serve\` on SQLite while \`movie-log import\` of ${ROWS} movies writes its file; an add and a read of 50 every ${EVERY_MS} ms. Times in ms.

| node | ${ROOTS.length > 1 ? 'tree | ' : ''}before: p99 / max | adds during: n: p50 / p99 / max | reads during: n: p50 / p99 / max | adds failed | 201s lost | import |
|---|${ROOTS.length > 1 ? '---|' : ''}---|---|---|---|---|---|
${lines.join('\n')}`
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  console.log(importStallReport(await importStallRun()))
}
