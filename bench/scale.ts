/**
 * The scale run: at growing log sizes, per store, the first page of 50 (in the order added, by
 * date latest first, by date within a range, and in the order added within a narrow range), the
 * full list, and memory.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { median } from './median'
import { rssMiB, SERVE, startRedis, startTarget } from './processes'
import { seedOverHttp } from './seed'
import { seedSqlTables } from './seed-tables'

export interface ScaleRow {
  store: string
  size: number
  firstPageMs: number
  /** `?sort=-screenedDate&limit=50` */
  datePageMs: number
  /** `?sort=-screenedDate&from=2024&to=2024-06&limit=50` */
  dateRangePageMs: number
  /** `?from=2024-03-10&to=2024-03-12&limit=50`: in the order added, a range few movies are in. */
  addedRangePageMs: number
  fullListMs: number
  fullListMiB: number
  rssMiB: number
}

// The pages measured at each size, after `?`; each page is the median of 20.
export const SCALE_PAGES = {
  firstPageMs: 'limit=50',
  datePageMs: 'sort=-screenedDate&limit=50',
  dateRangePageMs: 'sort=-screenedDate&from=2024&to=2024-06&limit=50',
  addedRangePageMs: 'from=2024-03-10&to=2024-03-12&limit=50',
} as const

async function medianPage(url: string): Promise<number> {
  await timed(url) // warm-up (Postgres builds its index here)
  const pages: number[] = []
  for (let n = 0; n < 20; n++) pages.push((await timed(url)).ms)
  return median(pages)
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
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-bench-'))
  const stores: [string, string, boolean][] = [
    ['memory', 'memory://', false],
    ['SQLite', `sqlite://${join(folder, 'movies.sqlite')}`, true],
    ['Redis', redis.url, false],
    ...(postgresUrl ? ([['PostgreSQL', postgresUrl, true]] as [string, string, boolean][]) : []),
  ]
  try {
    for (const [store, storeUrl, sql] of stores) {
      const target = await startTarget(store, SERVE, { MOVIE_LOG_STORE: storeUrl })
      let seeded = 0
      try {
        for (const size of sizes) {
          await (sql
            ? seedSqlTables(storeUrl, size - seeded, seeded)
            : seedOverHttp(target.url, size - seeded, seeded))
          seeded = size
          const pages = {} as Record<keyof typeof SCALE_PAGES, number>
          for (const [name, query] of Object.entries(SCALE_PAGES)) {
            pages[name as keyof typeof SCALE_PAGES] = await medianPage(`${target.url}?${query}`)
          }
          const full: { ms: number; bytes: number }[] = []
          for (let n = 0; n < 3; n++) full.push(await timed(target.url))
          const row = {
            store,
            size,
            ...pages,
            fullListMs: median(full.map((f) => f.ms)),
            fullListMiB: (full[0]?.bytes ?? 0) / 2 ** 20,
            rssMiB: rssMiB(target.process.pid),
          }
          rows.push(row)
          log(
            `scale ${store} ${size}: page ${row.firstPageMs.toFixed(2)} ms, by date ${row.datePageMs.toFixed(2)} ms, by date in a range ${row.dateRangePageMs.toFixed(2)} ms, added in a narrow range ${row.addedRangePageMs.toFixed(2)} ms, full ${row.fullListMs.toFixed(0)} ms, RSS ${row.rssMiB.toFixed(0)} MiB`,
          )
        }
      } finally {
        await target.stop()
      }
    }
  } finally {
    await redis.stop()
    if (postgresUrl) dropBenchDatabase()
    rmSync(folder, { recursive: true, force: true })
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
