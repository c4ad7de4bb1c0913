import type Keyv from 'keyv'
import { type Movie, sameMovie } from '../core/movie'
import { keyvCodec, keyvKeyPrefix } from './keyv'
import { createMovieCache } from './movie-cache'
import { type SqlAdapter, sqlRunner, sqlTable } from './sql-adapter'
import { datePage, datesReadable, ensureDateIndex } from './sql-dates'
import { ensureIndex } from './sql-indexes'
import { sqlRecords } from './sql-records'
import { type BaseDriver, byDate, isAfter, MOVIE_KEY_PREFIX, type MovieDriver } from './types'

/**
 * SQLite and PostgreSQL: keyv keeps one row per key, with the key as primary key, so a page in
 * the order added is an ordered range over the log's `movie:` keys, and a page by date an
 * ordered range over an expression index on the movie's screenedDate; both read only the rows
 * they return. Each write is one statement: create-if-absent an INSERT ... ON CONFLICT DO
 * NOTHING, compare-and-set an UPDATE and compare-and-delete a DELETE conditioned on the row's
 * old value; the database keeps both indexes in step with the row.
 */
export function createSqlDriver(keyv: Keyv, adapter: SqlAdapter): BaseDriver {
  const prefix = keyvKeyPrefix(keyv) + MOVIE_KEY_PREFIX
  const run = sqlRunner(adapter)
  const table = sqlTable(adapter)
  const codec = keyvCodec(keyv)
  // ';' follows ':' in every collation we compare with, so this bounds the prefix's keys.
  const end = `${prefix.slice(0, -1)};`
  const postgres = adapter.opts.dialect === 'postgres'
  const key = postgres ? 'key COLLATE "C"' : 'key'
  const cache = createMovieCache()
  let readable: boolean | undefined

  const rowsToMovies = async (rows: { key: string; value: string }[]) => {
    const movies: Movie[] = []
    for (const row of rows) {
      // A movie read before is not parsed again (nor, by the HTTP layer, serialised again).
      const movie = cache.get(row.value) ?? (await codec.decode(row.value))
      if (movie) movies.push(cache.keep(row.value, movie))
    }
    return movies
  }
  /** The stored text of a movie, when it still equals `expected`. */
  const current = async (expected: Movie) => {
    const [row] = await run(`SELECT value FROM ${table} WHERE key = ?`, [prefix + expected.id])
    const movie = row && (await codec.decode(row.value))
    return row && movie && sameMovie(movie, expected) ? row.value : undefined
  }
  const listAfter: MovieDriver['listAfter'] = async (after, limit) => {
    if (postgres) await ensureKeyIndex(adapter)
    const rows = await run(
      `SELECT key, value FROM ${table} WHERE ${key} > ? AND ${key} < ? ORDER BY ${key} LIMIT ?`,
      [prefix + (after ?? ''), end, Number.isFinite(limit) ? limit : postgres ? null : -1],
    )
    return rowsToMovies(rows)
  }

  return {
    remote: true,
    put: async (movie) => {
      const value = await codec.encode(movie)
      readable ??= datesReadable(value, movie)
      const inserted = await run(
        `INSERT INTO ${table} (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING RETURNING key`,
        [prefix + movie.id, value],
      )
      return inserted.length === 1
    },
    get: async (id) => {
      const [row] = await run(`SELECT value FROM ${table} WHERE key = ?`, [prefix + id])
      return row ? codec.decode(row.value) : undefined
    },
    replace: async (expected, next) => {
      const stored = await current(expected)
      if (stored === undefined) return false
      const updated = await run(
        `UPDATE ${table} SET value = ? WHERE key = ? AND value = ? RETURNING key`,
        [await codec.encode(next), prefix + next.id, stored],
      )
      return updated.length === 1
    },
    remove: async (expected) => {
      const stored = await current(expected)
      if (stored === undefined) return false
      const deleted = await run(`DELETE FROM ${table} WHERE key = ? AND value = ? RETURNING key`, [
        prefix + expected.id,
        stored,
      ])
      return deleted.length === 1
    },
    listAfter,
    listByDate: async (query, limit) => {
      if (readable === undefined) {
        const probe = { id: '', title: '', screenedDate: '2000-01-01T00:00:00.000' } as Movie
        readable = datesReadable(await codec.encode(probe), probe)
      }
      if (!readable) return sortedInProcess(listAfter, query, limit)
      await ensureDateIndex(adapter)
      const keys = { low: prefix, high: end, prefix }
      return rowsToMovies(await run(...datePage(adapter, table, keys, query, limit)))
    },
    ...sqlRecords(keyv, adapter),
  }
}

/** A date-sorted page where the database cannot read dates: every movie, sorted here. */
async function sortedInProcess(
  listAfter: MovieDriver['listAfter'],
  query: Parameters<MovieDriver['listByDate']>[0],
  limit: number,
): Promise<Movie[]> {
  const movies = (await listAfter(undefined, Infinity)).filter(
    (movie) =>
      movie.screenedDate >= query.from && movie.screenedDate <= query.to && isAfter(query, movie),
  )
  movies.sort(byDate)
  if (query.descending) movies.reverse()
  return movies.slice(0, limit)
}

// "C" order is byte order, as JavaScript compares ids, whatever the database locale.
function ensureKeyIndex(adapter: SqlAdapter): Promise<void> {
  const { table, schema = 'public' } = adapter.opts
  return ensureIndex(
    adapter,
    'key',
    `CREATE INDEX IF NOT EXISTS "${table}_key_c_idx" ON "${schema}"."${table}" (key COLLATE "C")`,
  )
}
