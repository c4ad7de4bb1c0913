/**
 * The first search and statistics after a burst of adds (issue 61): on SQLite, adds leave their
 * terms to the next read. One person of two adds BENCH_ADDS movies (10,000), then the other
 * person searches and reads their statistics, then the first does; each read timed. The other's
 * reads must take under a second, the adder's under the store timeout (5 s). The adds come at
 * BENCH_RATE a second (300, as issue 61's household sent them), each on its own as requests
 * would; BENCH_RATE=0 sends them a hundred at a time as fast as the store takes them, so the
 * store never idles and the adder's read counts in the whole burst (the worst case).
 * `npm run bench:backlog`; BENCH_ADDS, BENCH_RATE.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout } from 'node:timers/promises'
import { createMovieLogs } from '../src/create'
import { seededMovie } from './seed'

const ADDS = Number(process.env.BENCH_ADDS ?? 10_000)
const RATE = Number(process.env.BENCH_RATE ?? 300)
const folder = mkdtempSync(join(tmpdir(), 'movie-log-backlog-bench-'))
const logs = createMovieLogs(`sqlite://${join(folder, 'movies.sqlite')}`, {
  storeTimeoutMs: Number(process.env.BENCH_TIMEOUT_MS ?? 5000),
})
// Wall time, and this process's CPU time (the machine may be busy with others: CPU is the steadier).
const timed = async (what: string, read: () => Promise<unknown>) => {
  const [started, cpu] = [performance.now(), process.cpuUsage()]
  const outcome = await read().then(
    () => 'ok',
    (error: unknown) => `failed: ${(error as Error).message}`,
  )
  const { user, system } = process.cpuUsage(cpu)
  const wall = (performance.now() - started).toFixed(0)
  console.log(`${what}: ${wall} ms (CPU ${((user + system) / 1000).toFixed(0)} ms), ${outcome}`)
}
try {
  const [alice, bob] = [logs.of('alice'), logs.of('bob')]
  await bob.addMovie(seededMovie(0))
  // Counted in before the burst: what follows is the burst's backlog alone.
  await Promise.all([alice.listMovies({ q: 'x' }), bob.listMovies({ q: 'x' })])
  const started = performance.now()
  if (RATE > 0) {
    const adds: Promise<unknown>[] = []
    for (let n = 0; n < ADDS; n++) {
      const wait = started + (n * 1000) / RATE - performance.now()
      if (wait >= 1) await setTimeout(wait)
      adds.push(alice.addMovie(seededMovie(n)))
    }
    await Promise.all(adds)
  } else {
    for (let n = 0; n < ADDS; n += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, k) => alice.addMovie(seededMovie(n + k))))
    }
  }
  const rate = RATE > 0 ? `${RATE} a second` : 'as fast as the store takes them'
  console.log(`${ADDS} adds by alice, ${rate}: ${(performance.now() - started).toFixed(0)} ms`)
  await timed("bob's first search", () => bob.listMovies({ q: 'the' }))
  await timed("bob's first statistics", () => bob.stats())
  await timed("alice's first search", () => alice.listMovies({ q: 'the' }))
  await timed("alice's first statistics", () => alice.stats())
} finally {
  await logs.close()
  rmSync(folder, { recursive: true, force: true })
}
