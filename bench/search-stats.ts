/**
 * Search and statistics at growing sizes (issue 39), in process through the web handler: a
 * search page of 50 (a rare word, a common word, a two-letter prefix, a common word by date)
 * and the statistics (all, one year), each the median of 30 after 5 to warm, on memory,
 * SQLite, PostgreSQL (POSTGRES_URL) and Redis (REDIS_URL). Before each timing an edit of one
 * movie of the bench's own (matched by no query) moves the log's version, so the page cache
 * (core/page-cache.ts) never serves it: what is timed is the search itself. Tag filters (issue
 * 57): a tag on one movie in 10 (`festival`), one of 20 on every movie (`g<n>`), and both with q.
 * D1 is a local one in Miniflare's workerd (bench/d1.ts): each statement crosses from Node to it.
 * `npm run bench:search`; BENCH_SIZES (1000,10000,100000), BENCH_STORES (all).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toWebHandler } from '../adapters/web'
import { importMovies } from '../src/core/import'
import type { Movie } from '../src/core/movie'
import type { ClosableMovieLog } from '../src/create'
import { createMovieLog } from '../src/create'
import { openUrlDriver } from '../test/_backends'
import { benchD1, D1_BENCH_URL } from './d1'
import { median } from './median'
import { seedSqlTables } from './seed-tables'

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number)
// Common words (each in about 1 title in 50) and rare ones (1 in 5,000).
const COMMON = Array.from({ length: 50 }, (_, n) => `common${n.toString(36)}`)
const RARE = Array.from({ length: 5000 }, (_, n) => `rare${n.toString(36)}`)
const START = Date.UTC(2000, 0, 1)
const MINUTES = 26 * 365 * 24 * 60

/**
 * The `n`th movie: two words of title, a note, a date 2000-2025; one in 20 a rewatch of one of
 * 1,000 favourites, the others a movie of their own.
 */
function benchMovie(n: number): Omit<Movie, 'id'> {
  const hash = Number((BigInt(n) * 2654435761n) % 4294967296n)
  const minutes = hash % MINUTES
  return {
    title: `${COMMON[hash % 50]} ${RARE[(hash >>> 6) % 5000]} Cinéma`,
    screenedDate: new Date(START + minutes * 60_000).toISOString().slice(0, 23),
    releaseYear: 1920 + (hash % 105),
    imdbLink: `https://www.imdb.com/title/tt${String(n % 20 === 0 ? hash % 1000 : 1_000_000 + n).padStart(7, '0')}/`,
    notes: `seen ${n}`,
    rating: (hash % 10) + 1,
    tags: n % 10 === 0 ? [`g${hash % 20}`, 'festival'] : [`g${hash % 20}`],
  }
}

const QUERIES = {
  rare: 'q=rare1a&limit=50',
  common: 'q=common1&limit=50',
  prefix: 'q=ci&limit=50',
  'common by date': `q=${encodeURIComponent('cinema common1')}&sort=-screenedDate&limit=50`,
  tag: 'tag=festival&limit=50',
  'tag by date': 'tag=g3&sort=-screenedDate&limit=50',
  'two tags': 'tag=festival&tag=g3&limit=50',
  'tag and q': 'tag=festival&q=common1&limit=50',
  stats: 'stats',
  'stats 2024': 'stats?from=2024&to=2024',
}

const folder = mkdtempSync(join(tmpdir(), 'movie-log-search-bench-'))
const stores: [string, string][] = [
  ['memory', 'memory://'],
  ['SQLite', `sqlite://${join(folder, 'movies.sqlite')}`],
]
if (process.env.POSTGRES_URL) stores.push(['PostgreSQL', process.env.POSTGRES_URL])
if (process.env.REDIS_URL) stores.push(['Redis', process.env.REDIS_URL])
stores.push(['D1', D1_BENCH_URL])
// BENCH_STORES=SQLite,Redis: only those.
const only = process.env.BENCH_STORES?.split(',')
if (only) stores.splice(0, stores.length, ...stores.filter(([name]) => only.includes(name)))
const d1 = stores.some(([, url]) => url === D1_BENCH_URL) ? benchD1() : undefined

async function seed(
  log: ClosableMovieLog,
  url: string,
  namespace: string,
  from: number,
  to: number,
) {
  if (url.startsWith('sqlite:') || url.startsWith('postgres')) {
    return seedSqlTables(url, to - from, from, namespace, benchMovie)
  }
  if (url === D1_BENCH_URL) return d1?.seed(namespace, from, to, benchMovie)
  // Imported, which counts each batch's terms in as it goes: 100,000 adds would leave them to
  // the first timed search (on Redis, 500 a store call).
  const rows = Array.from({ length: to - from }, (_, k) => ({
    line: k + 1,
    movie: benchMovie(from + k),
  }))
  const { added } = await importMovies(log, rows)
  if (added !== rows.length) throw new Error(`seeding: ${added} of ${rows.length} imported`)
}

try {
  for (const [store, url] of stores) {
    const namespace = `bench-${randomUUID()}`
    const log = createMovieLog(url, { namespace })
    const handle = toWebHandler(log)
    const time = async (path: string) => {
      const start = performance.now()
      const target = path.startsWith('stats') ? `movies/${path}` : `movies?${path}`
      const response = await handle(new Request(`http://bench.test/${target}`))
      await response.arrayBuffer()
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
      return performance.now() - start
    }
    // Edited between timings: a write the page cache sees, off the clock.
    const touch = await log.addMovie({
      title: 'Touch',
      screenedDate: '1999-01-01T00:00:00.000',
      releaseYear: 1999,
      imdbLink: 'https://www.imdb.com/title/tt0000001/',
      notes: 'n0',
    })
    let touches = 0
    const timeAfresh = async (path: string) => {
      await log.updateMovie(touch.id, { notes: `n${++touches}` })
      return time(path)
    }
    let seeded = 0
    try {
      for (const size of SIZES) {
        const began = performance.now()
        await seed(log, url, namespace, seeded, size)
        const seeding = ((performance.now() - began) / 1000).toFixed(1)
        seeded = size
        const row: Record<string, string> = {}
        for (const [name, query] of Object.entries(QUERIES)) {
          for (let n = 0; n < 5; n++) await timeAfresh(query)
          const times: number[] = []
          for (let n = 0; n < 30; n++) times.push(await timeAfresh(query))
          row[name] = median(times).toFixed(2)
        }
        console.log(
          `[search-stats] ${store} ${size} (seeded in ${seeding} s): ${JSON.stringify(row)}`,
        )
      }
    } finally {
      await log.close()
      // D1's database goes with its Miniflare, disposed at the end.
      if (!url.startsWith('memory:') && url !== D1_BENCH_URL) {
        const driver = await openUrlDriver(url, { namespace, connectTimeoutMs: 2000 })
        await driver.drop('')
        await driver.close()
      }
    }
  }
} finally {
  await d1?.close()
  rmSync(folder, { recursive: true, force: true })
}
