import type { Movie } from '../core/movie'
import type { SqlAdapter } from './sql-adapter'
import { ensureIndex } from './sql-indexes'
import type { DateQuery } from './types'

// keyv keeps a movie as JSON text; its screenedDate is read from that text by position, with
// functions that never fail (a row that is not a movie gives NULL), so an expression index on
// it is kept by the database itself, in the same statement as the row, by every writer.
const FIELD = `'"screenedDate":"'`
const sqliteDate = `(CASE WHEN instr(value, ${FIELD}) > 0 THEN substr(value, instr(value, ${FIELD}) + 16, 23) END)`
const postgresDate = `(CASE WHEN strpos(value, ${FIELD}) > 0 THEN substr(value, strpos(value, ${FIELD}) + 16, 23) END) COLLATE "C"`

/**
 * Whether the date can be read from the text keyv writes for a movie: true for keyv's own JSON,
 * false under a custom serializer or compression, where the driver sorts in the process instead.
 */
export function datesReadable(encoded: string, movie: Movie): boolean {
  const at = encoded.indexOf('"screenedDate":"')
  return at >= 0 && encoded.slice(at + 16, at + 16 + 23) === movie.screenedDate
}

/** The date index of a keyv table (SQLite or PostgreSQL), created if missing. */
export function ensureDateIndex(adapter: SqlAdapter): Promise<void> {
  const { dialect, table, schema = 'public' } = adapter.opts
  return dialect === 'sqlite'
    ? ensureIndex(
        adapter,
        'date',
        `CREATE INDEX IF NOT EXISTS "${table}_movie_date_idx" ON "${table}" (${sqliteDate}, key)`,
      )
    : ensureIndex(
        adapter,
        'date',
        `CREATE INDEX IF NOT EXISTS "${table}_movie_date_c_idx" ON "${schema}"."${table}" (${postgresDate}, key COLLATE "C")`,
      )
}

/**
 * The statement and parameters of a date-sorted page of the keys between `low` and `high`
 * (exclusive), ordered by (date, key) as the index is, so the database reads only the rows it
 * returns. Written with `?` placeholders, for `sqlRunner`.
 */
export function datePage(
  adapter: SqlAdapter,
  table: string,
  keys: { low: string; high: string; prefix: string },
  query: DateQuery,
  limit: number,
): [string, unknown[]] {
  const postgres = adapter.opts.dialect === 'postgres'
  const date = postgres ? postgresDate : sqliteDate
  const key = postgres ? 'key COLLATE "C"' : 'key'
  const direction = query.descending ? 'DESC' : 'ASC'
  const parameters: unknown[] = [query.from, query.to, keys.low, keys.high]
  let resume = ''
  if (query.after) {
    resume = ` AND (${date}, ${key}) ${query.descending ? '<' : '>'} (?, ?)`
    parameters.push(query.after.date, keys.prefix + query.after.id)
  }
  parameters.push(Number.isFinite(limit) ? limit : postgres ? null : -1)
  const sql = `SELECT key, value FROM ${table} WHERE ${date} >= ? AND ${date} <= ? AND ${key} > ? AND ${key} < ?${resume} ORDER BY ${date} ${direction}, ${key} ${direction} LIMIT ?`
  return [sql, parameters]
}
