import type { DateQuery, LogDriver, StoreDriver } from '../core/driver'
import { UnsupportedStoreError } from '../core/errors'
import type { Movie } from '../core/movie'
import { createMovieCache } from './movie-cache'
import { isSqlStoreFailure } from './sql-failures'
import { type SqlDialect, sqlStatements } from './sql-statements'

/** A database connection (or pool) as the SQL driver uses it: one statement at a time. */
export interface SqlConnection {
  dialect: SqlDialect
  /** Runs one statement with its parameters; resolves with the rows it returned. */
  query(sql: string, parameters: readonly unknown[]): Promise<Record<string, unknown>[]>
  close(): Promise<void>
}

/** How often a driver deletes a batch of expired records, at most. */
const PURGE_EVERY_MS = 60_000

/**
 * A movie as the SQL drivers store it: its JSON text, fields in one order. Every writer writes
 * the same text for the same movie, so a compare-and-set compares the text itself.
 */
export function movieText(movie: Movie): string {
  const { id, title, screenedDate, releaseYear, imdbLink, notes } = movie
  return JSON.stringify({ id, title, screenedDate, releaseYear, imdbLink, notes })
}

/**
 * The store-wide driver over SQLite or PostgreSQL, on a database whose schema its opener has
 * created (`schemaStatements`). Every call is one statement, atomic on its own: create-if-absent an
 * INSERT ... ON CONFLICT DO NOTHING, compare-and-set an UPDATE and compare-and-delete a DELETE
 * conditioned on the stored text; each tells by the row it returns whether it did.
 */
export function createSqlDriver(
  connection: SqlConnection,
  options: { kind: string; namespace: string },
): StoreDriver {
  const sql = sqlStatements(connection.dialect)
  const { namespace } = options
  const query = (statement: string, parameters: readonly unknown[]) =>
    connection.query(statement, parameters)
  // Movies read before, by their stored text: a page reuses the frozen movie it parsed then.
  const cache = createMovieCache()
  const toMovies = (rows: Record<string, unknown>[]) =>
    rows.map((row) => {
      const text = row.movie as string
      return cache.get(text) ?? cache.keep(text, JSON.parse(text) as Movie)
    })
  const limitOf = (limit: number) => (Number.isFinite(limit) ? limit : sql.noLimit)
  let nextPurge = 0
  let closing: Promise<void> | undefined

  const log = (owner: string): LogDriver => {
    const run = (statement: string, ...parameters: unknown[]) =>
      query(statement, [namespace, owner, ...parameters])
    return {
      put: async (movie) =>
        (await run(sql.put, movie.id, movie.screenedDate, movieText(movie))).length === 1,
      // No stored id holds a NUL (PostgreSQL text cannot): such an id is not found, not an error.
      get: async (id) => (id.includes('\0') ? undefined : toMovies(await run(sql.get, id))[0]),
      listAfter: async (after, limit) =>
        toMovies(await run(sql.listAfter, after ?? '', limitOf(limit))),
      listByDate: async (dates, limit) => {
        const [resuming, far, ...start] = datePage(dates)
        const statement = sql.byDate[dates.descending ? 1 : 0][resuming]
        return toMovies(await run(statement, far, limitOf(limit), ...start))
      },
      replace: async (expected, next) =>
        (
          await run(
            sql.replace,
            expected.id,
            movieText(expected),
            next.screenedDate,
            movieText(next),
          )
        ).length === 1,
      remove: async (expected) =>
        (await run(sql.remove, expected.id, movieText(expected))).length === 1,
      create: async (key, value, ttlMs) => {
        const now = Date.now()
        if (now >= nextPurge) {
          // Expired records of any owner, a bounded batch, before this claim: nothing runs
          // after the call has answered, and a store failing here fails the claim as it would.
          nextPurge = now + PURGE_EVERY_MS
          await query(sql.purge, [now])
        }
        return (await run(sql.create, key, value, now + ttlMs, now)).length === 1
      },
      read: async (key) => (await run(sql.read, key, Date.now()))[0]?.value as string | undefined,
      write: async (key, value, ttlMs) => {
        await run(sql.write, key, value, Date.now() + ttlMs)
      },
      // TEMPORARY (issue 29): until the SQL change history lands (branch live-drivers).
      changesAfter: async () => {
        throw noLiveChanges(options.kind)
      },
      latestChange: async () => {
        throw noLiveChanges(options.kind)
      },
    }
  }

  return {
    kind: options.kind,
    remote: true,
    atomic: true,
    log,
    drop: async (owner) => {
      await query(sql.dropMovies, [namespace, owner])
      await query(sql.dropRecords, [namespace, owner])
    },
    owners: async (after, limit = Number.POSITIVE_INFINITY) =>
      (await query(sql.owners, [namespace, after ?? '', limitOf(limit)])).map(
        (row) => row.owner as string,
      ),
    onChange: () => {
      throw noLiveChanges(options.kind)
    },
    isStoreFailure: isSqlStoreFailure,
    close: () => {
      closing ??= connection.close()
      return closing
    },
  }
}

// TEMPORARY (issue 29): until the SQL change history lands (branch live-drivers).
function noLiveChanges(kind: string): UnsupportedStoreError {
  return new UnsupportedStoreError(`live changes are not available on ${kind} yet`)
}

/**
 * Which date statement (0: from the near bound, 1: resuming) and its bounds: the far one, then
 * the near one or the resume point, whichever is further in (a cursor's movie is in its range).
 */
function datePage(dates: DateQuery): [0 | 1, string, ...string[]] {
  const { descending, from, to, after } = dates
  const [near, far] = descending ? [to, from] : [from, to]
  const inside = after && (descending ? after.date <= to : after.date >= from)
  return inside ? [1, far, after.date, after.id] : [0, far, near]
}
