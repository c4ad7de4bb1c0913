// Issue 35: a page of 50 on D1 reads about as many rows at 100k movies as at 1k, for every sort
// and range, judged by the rows D1 says it read (`meta.rows_read`, what D1 bills), not by the
// clock. The movies are written by one SQL statement each (the driver's tables and triggers),
// so the seeding takes seconds where 100k adds through workerd would take an hour.
import { type ClosableMovieLog, createMovieLog, type ListMoviesOptions } from 'movie-log'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { openD1Driver } from '../../src/drivers/d1/driver'
import { countingD1, localD1, registerD1Scheme } from '../_d1'

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 })

const SIZES = [1_000, 100_000]
const { binding } = localD1()
const counting = countingD1(await binding())
registerD1Scheme('d1-counted', async () => counting.binding)

/** `count` movies under `namespace`, spread over 2000 to 2024 whatever their number, ids in the order added. */
async function seed(namespace: string, count: number) {
  const driver = await openD1Driver(await binding(), { namespace })
  await driver.close()
  const db = await binding()
  await db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2),
      m(id, screened, i) AS (SELECT printf('%08x-0000-7000-8000-%012x', i, i), strftime('%Y-%m-%dT20:30:00.000', '2000-01-01', '+' || (i * 9000 / ?2) || ' days'), i FROM n)
      INSERT INTO movie_log_movies (namespace, owner, id, screened, movie)
      SELECT ?1, '', id, screened, json_object('id', id, 'title', 'Movie ' || i, 'screenedDate', screened, 'releaseYear', 1950 + i % 70, 'imdbLink', printf('https://www.imdb.com/title/tt%07d/', i), 'notes', '') FROM m`,
    )
    .bind(namespace, count)
    .all()
}

describe('D1 at scale: a page of 50 at 1k and at 100k movies', () => {
  const logs = new Map<number, ClosableMovieLog>()
  beforeAll(async () => {
    for (const size of SIZES) {
      const started = performance.now()
      await seed(`scale-${size}`, size)
      console.log(`seeded ${size} movies in ${Math.round(performance.now() - started)} ms`)
      logs.set(size, createMovieLog('d1-counted://', { namespace: `scale-${size}` }))
    }
  })
  afterAll(() => Promise.all([...logs.values()].map((log) => log.close())))

  /** Rows read by the first page and by the one a cursor from the middle of the walk resumes. */
  const rowsOfPages = async (size: number, options: ListMoviesOptions) => {
    const log = logs.get(size) as ClosableMovieLog
    await log.getMovie('warm-up')
    const read = async (page: ListMoviesOptions) => {
      const before = counting.rowsRead()
      const started = performance.now()
      const { movies, nextCursor } = await log.listMovies(page)
      return {
        rows: counting.rowsRead() - before,
        ms: performance.now() - started,
        movies,
        nextCursor,
      }
    }
    const first = await read({ ...options, limit: 50 })
    expect(first.movies).toHaveLength(50)
    // A cursor from inside the listing: the page after its first tenth.
    const middle = await read({ ...options, limit: size / 10 })
    const resumed = await read({ ...options, limit: 50, cursor: middle.nextCursor as string })
    expect(resumed.movies).toHaveLength(50)
    return { first, resumed }
  }

  for (const [name, options] of [
    ['in the order added', {}],
    ['earliest screened first', { sort: 'screenedDate' }],
    ['latest screened first', { sort: '-screenedDate' }],
    ['latest first within 2005-2010', { sort: '-screenedDate', from: '2005', to: '2010' }],
    ['earliest first from 2010', { sort: 'screenedDate', from: '2010' }],
  ] as [string, ListMoviesOptions][]) {
    it(`reads the same rows for a page ${name}`, async () => {
      const [small, large] = [
        await rowsOfPages(1_000, options),
        await rowsOfPages(100_000, options),
      ]
      console.log(
        `${name}: rows read at 1k ${small.first.rows} + ${small.resumed.rows}, at 100k ${large.first.rows} + ${large.resumed.rows}; ms at 1k ${small.first.ms.toFixed(1)} + ${small.resumed.ms.toFixed(1)}, at 100k ${large.first.ms.toFixed(1)} + ${large.resumed.ms.toFixed(1)}`,
      )
      // A range of an index: the rows of the page (and the one past it that tells a next page
      // exists), never the rows before it or the whole table.
      for (const { first, resumed } of [small, large]) {
        expect(first.rows).toBeLessThanOrEqual(60)
        expect(resumed.rows).toBeLessThanOrEqual(60)
      }
      expect(large.first.rows).toBeLessThanOrEqual(small.first.rows + 2)
      expect(large.resumed.rows).toBeLessThanOrEqual(small.resumed.rows + 2)
    })
  }
})
