import type Keyv from 'keyv'
import { type Movie, sameMovie } from '../core/movie'
import { keyvCodec, keyvKeyPrefix } from './keyv'
import { createMovieCache } from './movie-cache'
import { keyvMovie, setOrThrow } from './records'
import { type SqlAdapter, sqlRunner, sqlTable } from './sql-adapter'
import { sqlRecords } from './sql-records'
import { MOVIE_KEY_PREFIX, type MovieDriver, movieKey } from './types'

// One "C"-collated index per Postgres table, created once per process.
const postgresIndexes = new Map<string, Promise<void>>()

/**
 * SQLite and PostgreSQL: keyv keeps one row per key, with the key as primary key, so a page is
 * an ordered range over the log's `movie:` keys that reads only the rows it returns.
 * Writes stay keyv's own single-row upserts; create-if-absent is INSERT ... ON CONFLICT DO
 * NOTHING, compare-and-set an UPDATE conditioned on the row's old value.
 */
export function createSqlDriver(keyv: Keyv, adapter: SqlAdapter): MovieDriver {
  const prefix = keyvKeyPrefix(keyv) + MOVIE_KEY_PREFIX
  const run = sqlRunner(adapter)
  const table = sqlTable(adapter)
  const codec = keyvCodec(keyv)
  // ';' follows ':' in every collation we compare with, so this bounds the prefix's keys.
  const end = `${prefix.slice(0, -1)};`
  const { dialect, table: name, schema = 'public' } = adapter.opts
  const cache = createMovieCache()

  const page =
    dialect === 'sqlite'
      ? (from: string, limit: number) =>
          adapter.query(
            `SELECT key, value FROM ${name} WHERE key > ? AND key < ? ORDER BY key LIMIT ?`,
            from,
            end,
            Number.isFinite(limit) ? limit : -1,
          )
      : async (from: string, limit: number) => {
          await ensurePostgresIndex(adapter, schema, name)
          // "C" order is byte order, as JavaScript compares ids, whatever the database locale.
          return adapter.query(
            `SELECT key, value FROM ${table} WHERE key COLLATE "C" > $1 AND key COLLATE "C" < $2 ORDER BY key COLLATE "C" LIMIT $3`,
            [from, end, Number.isFinite(limit) ? limit : null],
          )
        }

  return {
    remote: true,
    put: (movie) => setOrThrow(keyv, movieKey(movie.id), movie),
    get: (id) => keyvMovie(keyv, id),
    replace: async (expected, next) => {
      const key = prefix + next.id
      const [row] = await run(`SELECT value FROM ${table} WHERE key = ?`, [key])
      if (!row) return false
      const stored = await codec.decode(row.value)
      if (!stored || !sameMovie(stored, expected)) return false
      const value = await codec.encode(next)
      const updated = await run(
        `UPDATE ${table} SET value = ? WHERE key = ? AND value = ? RETURNING key`,
        [value, key, row.value],
      )
      return updated.length === 1
    },
    ...sqlRecords(keyv, adapter),
    listAfter: async (after, limit) => {
      const rows = await page(prefix + (after ?? ''), limit)
      const movies: Movie[] = []
      for (const row of rows) {
        // A movie read before is not parsed again (nor, by the HTTP layer, serialised again).
        const cached = cache.get(row.key.slice(prefix.length))
        if (cached) {
          movies.push(cached)
          continue
        }
        const movie = await codec.decode(row.value)
        if (movie) movies.push(cache.keep(movie))
      }
      return movies
    },
  }
}

function ensurePostgresIndex(adapter: SqlAdapter, schema: string, table: string): Promise<void> {
  const name = `${schema}.${table}`
  let created = postgresIndexes.get(name)
  if (!created) {
    created = adapter
      .query(
        `CREATE INDEX IF NOT EXISTS "${table}_key_c_idx" ON "${schema}"."${table}" (key COLLATE "C")`,
        [],
      )
      .then(
        () => {},
        (error: unknown) => {
          postgresIndexes.delete(name)
          // Two processes creating it at once: the other one won, which is just as good.
          if ((error as { code?: string }).code === '23505') return
          throw error
        },
      )
    postgresIndexes.set(name, created)
  }
  return created
}
