/**
 * The SQL drivers' pages of 50 at growing sizes, in process: `createMovieLog(url)` behind the
 * web handler, the scale run's pages (bench/scale.ts SCALE_PAGES), each the median of 30.
 * `node --import tsx bench/sql-pages.ts`; BENCH_SIZES (1000,100000), POSTGRES_URL (a database
 * the run may create `movie_log_movies` in; its namespace is dropped after).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toWebHandler } from '../adapters/web'
import { createMovieLog } from '../src/create'
import { median } from './median'
import { SCALE_PAGES } from './scale'
import { seedSqlTables } from './seed-tables'

const SIZES = (process.env.BENCH_SIZES ?? '1000,100000').split(',').map(Number)
const folder = mkdtempSync(join(tmpdir(), 'movie-log-sql-pages-'))
const stores: [string, string][] = [['SQLite', `sqlite://${join(folder, 'movies.sqlite')}`]]
if (process.env.POSTGRES_URL) stores.push(['PostgreSQL', process.env.POSTGRES_URL])

try {
  for (const [store, url] of stores) {
    const namespace = `bench-${randomUUID()}`
    const log = createMovieLog(url, { namespace })
    const handle = toWebHandler(log)
    const page = async (query: string) => {
      const start = performance.now()
      const response = await handle(new Request(`http://bench.test/movies?${query}`))
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`${query}: ${response.status}`)
      return performance.now() - start
    }
    let seeded = 0
    try {
      for (const size of SIZES) {
        await seedSqlTables(url, size - seeded, seeded, namespace)
        seeded = size
        const row: Record<string, string> = {}
        for (const [name, query] of Object.entries(SCALE_PAGES)) {
          for (let n = 0; n < 5; n++) await page(query)
          const times: number[] = []
          for (let n = 0; n < 30; n++) times.push(await page(query))
          row[name] = median(times).toFixed(2)
        }
        console.log(`[sql-pages] ${store} ${size}: ${JSON.stringify(row)}`)
      }
    } finally {
      await log.close()
      const { openSqliteDriver } = await import('../src/drivers/sqlite/driver')
      const { openPostgresDriver } = await import('../src/drivers/postgres/driver')
      const open = store === 'SQLite' ? openSqliteDriver : openPostgresDriver
      const driver = await open(url, { namespace, connectTimeoutMs: 2000 })
      await driver.drop('')
      await driver.close()
    }
  }
} finally {
  rmSync(folder, { recursive: true, force: true })
}
