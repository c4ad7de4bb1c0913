/**
 * POST /movies (each adds one) on SQLite and Redis, for the server of one or more source trees
 * side by side: `ADDS_ROOTS=/path/to/before,/path/to/after node --import tsx bench/adds.ts`
 * (default: this tree alone). Each round starts new servers, targets alternating; the median
 * over `ADDS_ROUNDS` (3) of `ADDS_SECONDS` (5) after a 2 s warm-up, 32 connections.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { load } from './load'
import { median } from './median'
import { onCpu, SERVER_CPU } from './pinning'
import { freePort, startRedis, waitForPort } from './processes'

const roots = (process.env.ADDS_ROOTS ?? fileURLToPath(new URL('..', import.meta.url))).split(',')
const rounds = Number(process.env.ADDS_ROUNDS ?? 3)
const seconds = Number(process.env.ADDS_SECONDS ?? 5)
const body = JSON.stringify({
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
  notes: 'Seen at the Prince Charles.',
})

async function serve(root: string, store: string) {
  const port = await freePort()
  const [command, args] = onCpu(SERVER_CPU, process.execPath, [
    '--import',
    'tsx',
    'src/cli/index.ts',
    'serve',
  ])
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), MOVIE_LOG_STORE: store },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  await waitForPort(port)
  return {
    url: `http://127.0.0.1:${port}/movies`,
    stop: async () => {
      child.kill('SIGTERM')
      if (child.exitCode === null && child.signalCode === null)
        await new Promise((done) => child.once('exit', done))
    },
  }
}

const results = new Map<string, { rps: number[]; p99: number[] }>()
for (let round = 1; round <= rounds; round++) {
  for (const root of roots) {
    for (const kind of ['SQLite', 'Redis'] as const) {
      const folder = mkdtempSync(join(tmpdir(), 'movie-log-adds-'))
      const redis = kind === 'Redis' ? await startRedis() : undefined
      const store = redis?.url ?? `sqlite://${join(folder, 'movies.sqlite')}`
      const server = await serve(root, store)
      try {
        await load(server.url, { method: 'POST', body, seconds: 2, connections: 32 })
        const result = await load(server.url, { method: 'POST', body, seconds, connections: 32 })
        const name = `${root} ${kind}`
        const samples = results.get(name) ?? { rps: [], p99: [] }
        samples.rps.push(result.rps)
        samples.p99.push(result.p99Ms)
        results.set(name, samples)
        console.error(`round ${round}: ${name}: ${result.rps.toFixed(0)} req/s`)
      } finally {
        await server.stop()
        await redis?.stop()
        rmSync(folder, { recursive: true, force: true })
      }
    }
  }
}
console.log('| tree | store | POST req/s (median) | per round | p99 ms (median) |')
console.log('|---|---|---|---|---|')
for (const [name, { rps, p99 }] of results) {
  const [root, kind] = [name.slice(0, name.lastIndexOf(' ')), name.slice(name.lastIndexOf(' ') + 1)]
  console.log(
    `| ${root} | ${kind} | ${median(rps).toFixed(0)} | ${rps.map((n) => n.toFixed(0)).join(', ')} | ${median(p99).toFixed(2)} |`,
  )
}
