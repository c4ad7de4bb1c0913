/**
 * Adds per commit on SQLite (issue 36): `movie-log serve` (the built dist/cli.js) on a new
 * SQLite file under strace, POST /movies at 1, 8 and 32 connections for COMMITS_SECONDS (5)
 * each, and the syncs to disk (fdatasync, fsync) the server made meanwhile. A commit in WAL with
 * synchronous FULL syncs the log once; a checkpoint adds two now and then: adds per sync is a
 * lower bound of adds per commit. On sqlite3 with this Node and, where .ci/node-lines.ts has
 * fetched it, node:sqlite on Node 24.
 *
 *   npm run build && node --import tsx bench/commits.ts
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { nodeBinary } from '../.ci/node-lines'
import { load } from './load'
import { freePort, waitForPort } from './processes'
import { MOVIE } from './seed'

const SECONDS = Number(process.env.COMMITS_SECONDS ?? 5)
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url))

const syncs = (trace: string) =>
  (readFileSync(trace, 'utf8').match(/\b(fdatasync|fsync)\(/g) ?? []).length

async function traced(binary: string, store: string, trace: string) {
  const port = await freePort()
  const child: ChildProcess = spawn(
    'strace',
    ['-f', '-qq', '-e', 'trace=fdatasync,fsync', '-o', trace, binary, CLI, 'serve'],
    {
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), MOVIE_LOG_STORE: store },
      stdio: ['ignore', 'ignore', 'inherit'],
      // Its own group: stopping the group stops strace and the server together.
      detached: true,
    },
  )
  await waitForPort(port)
  return {
    url: `http://127.0.0.1:${port}/movies`,
    stop: async () => {
      process.kill(-(child.pid as number), 'SIGKILL')
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise((done) => child.once('exit', done))
      }
    },
  }
}

const lines: [string, string | undefined, string][] = [
  ['sqlite3', process.execPath, 'sqlite3'],
  ['node:sqlite', nodeBinary('24'), 'builtin'],
]
const rows: string[] = []
for (const [library, binary, client] of lines) {
  if (!binary) {
    console.log(`${library}: no Node 24 binary, skipped`)
    continue
  }
  for (const connections of [1, 8, 32]) {
    const folder = mkdtempSync(join(tmpdir(), 'movie-log-commits-'))
    const trace = join(folder, 'trace')
    const server = await traced(
      binary,
      `sqlite://${join(folder, 'm.sqlite')}?client=${client}`,
      trace,
    )
    try {
      const body = JSON.stringify(MOVIE)
      await load(server.url, { method: 'POST', body, seconds: 1, connections })
      const before = syncs(trace)
      const { requests, rps } = await load(server.url, {
        method: 'POST',
        body,
        seconds: SECONDS,
        connections,
      })
      const synced = syncs(trace) - before
      rows.push(
        `| ${library} | ${connections} | ${requests} | ${rps.toFixed(0)} | ${synced} | ${(requests / synced).toFixed(1)} |`,
      )
      console.log(rows.at(-1))
    } finally {
      await server.stop()
      rmSync(folder, { recursive: true, force: true })
    }
  }
}
console.log(`
| library | connections | adds | adds/s | syncs | adds per sync |
|---|---|---|---|---|---|
${rows.join('\n')}`)
