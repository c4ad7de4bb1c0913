import type Keyv from 'keyv'
import type { Movie } from '../movie'
import { createMovieCache } from './movie-cache'
import { MOVIE_KEY_PREFIX, type MovieIndex, movieKey } from './types'

/** The parts of a @keyv/sqlite or @keyv/postgres adapter this index relies on. */
export interface SqlAdapter {
  opts: { dialect: 'sqlite' | 'postgres'; table: string; schema?: string }
  query(sql: string, ...parameters: unknown[]): Promise<{ key: string; value: string }[]>
}

export function isSqlAdapter(store: unknown): store is SqlAdapter {
  const candidate = store as Partial<SqlAdapter> | null
  const dialect = candidate?.opts?.dialect
  return (
    typeof candidate?.query === 'function' &&
    (dialect === 'sqlite' || dialect === 'postgres') &&
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(candidate.opts?.table ?? '') &&
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(candidate.opts?.schema ?? 'public')
  )
}

// One "C"-collated index per Postgres table, created once per process.
const postgresIndexes = new Map<string, Promise<void>>()

/**
 * SQLite and PostgreSQL: keyv keeps one row per key, with the key as primary key, so a page is
 * an ordered range over the log's `movie:` keys that reads only the rows it returns.
 * Writes stay keyv's own single-row upserts.
 */
export function createSqlIndex(keyv: Keyv, adapter: SqlAdapter): MovieIndex {
  const prefix = `${keyv.useKeyPrefix && keyv.namespace ? `${keyv.namespace}:` : ''}${MOVIE_KEY_PREFIX}`
  // ';' follows ':' in every collation we compare with, so this bounds the prefix's keys.
  const end = `${prefix.slice(0, -1)};`
  const { dialect, table, schema = 'public' } = adapter.opts
  const cache = createMovieCache()

  const page =
    dialect === 'sqlite'
      ? (from: string, limit: number) =>
          adapter.query(
            `SELECT key, value FROM ${table} WHERE key > ? AND key < ? ORDER BY key LIMIT ?`,
            from,
            end,
            Number.isFinite(limit) ? limit : -1,
          )
      : async (from: string, limit: number) => {
          await ensurePostgresIndex(adapter, schema, table)
          // "C" order is byte order, as JavaScript compares ids, whatever the database locale.
          return adapter.query(
            `SELECT key, value FROM "${schema}"."${table}" WHERE key COLLATE "C" > $1 AND key COLLATE "C" < $2 ORDER BY key COLLATE "C" LIMIT $3`,
            [from, end, Number.isFinite(limit) ? limit : null],
          )
        }

  return {
    put: async (movie) => {
      await keyv.set(movieKey(movie.id), movie)
    },
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
        const data = (await keyv.deserializeData(row.value)) as { value?: Movie } | undefined
        if (data?.value) movies.push(cache.keep(data.value))
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
