/** The scale run: first page and full list at growing log sizes, per store, with memory. */
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { median } from './median'
import { rssMiB, startRedis, startTarget } from './processes'
import { seedOverHttp, seedSql } from './seed'

export interface ScaleRow {
  store: string
  size: number
  firstPageMs: number
  fullListMs: number
  fullListMiB: number
  rssMiB: number
}

async function timed(url: string): Promise<{ ms: number; bytes: number }> {
  const start = performance.now()
  const response = await fetch(url)
  const bytes = (await response.arrayBuffer()).byteLength
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`)
  return { ms: performance.now() - start, bytes }
}

export async function scaleRun(sizes: number[], log: (line: string) => void): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = []
  const redis = await startRedis()
  const postgresUrl = createBenchDatabase()
  const stores: [string, string, boolean][] = [
    ['memory', 'memory://', false],
    [
      'SQLite',
      `sqlite://${join(mkdtempSync(join(tmpdir(), 'movie-log-bench-')), 'movies.sqlite')}`,
      true,
    ],
    ['Redis', redis.url, false],
    ...(postgresUrl ? ([['PostgreSQL', postgresUrl, true]] as [string, string, boolean][]) : []),
  ]
  try {
    for (const [store, storeUrl, sql] of stores) {
      const target = await startTarget(store, 'examples/server.ts', { MOVIE_LOG_STORE: storeUrl })
      let seeded = 0
      try {
        for (const size of sizes) {
          await (sql ? seedSql(storeUrl, size - seeded) : seedOverHttp(target.url, size - seeded))
          seeded = size
          await timed(`${target.url}?limit=50`) // warm-up (Postgres builds its index here)
          const pages: number[] = []
          for (let n = 0; n < 20; n++) pages.push((await timed(`${target.url}?limit=50`)).ms)
          const full: { ms: number; bytes: number }[] = []
          for (let n = 0; n < 3; n++) full.push(await timed(target.url))
          const row = {
            store,
            size,
            firstPageMs: median(pages),
            fullListMs: median(full.map((f) => f.ms)),
            fullListMiB: (full[0]?.bytes ?? 0) / 2 ** 20,
            rssMiB: rssMiB(target.process.pid),
          }
          rows.push(row)
          log(
            `scale ${store} ${size}: page ${row.firstPageMs.toFixed(2)} ms, full ${row.fullListMs.toFixed(0)} ms, RSS ${row.rssMiB.toFixed(0)} MiB`,
          )
        }
      } finally {
        await target.stop()
      }
    }
  } finally {
    await redis.stop()
    if (postgresUrl) dropBenchDatabase()
  }
  return rows
}

const ADMIN_URL =
  process.env.BENCH_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

// A database of its own, so the run neither reads nor leaves anyone else's rows.
function createBenchDatabase(): string | undefined {
  try {
    dropBenchDatabase()
    execFileSync('psql', [ADMIN_URL, '-qc', 'CREATE DATABASE movie_log_bench'], { stdio: 'pipe' })
    return ADMIN_URL.replace(/\/[^/]*$/, '/movie_log_bench')
  } catch {
    console.error('bench: no PostgreSQL to create movie_log_bench in; the scale run skips it')
    return undefined
  }
}

function dropBenchDatabase(): void {
  execFileSync('psql', [ADMIN_URL, '-qc', 'DROP DATABASE IF EXISTS movie_log_bench'], {
    stdio: 'pipe',
  })
}
