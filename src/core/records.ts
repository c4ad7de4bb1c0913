/**
 * Records beside a log's movies: short strings under keys, each with its own expiry, written
 * create-if-absent across every process on the store. Features above the core (the Trakt API's
 * grants and scrobble windows) keep their state here rather than in a table of their own.
 */
import type { LogDriver } from './driver'
import { importTargetOf } from './import-target'
import type { MovieLog, MovieLogs } from './movie-log'

/**
 * One log's records: the driver port's `create`, `read` and `write`, bounded by the log's store
 * timeout as its movies are.
 *
 * @example
 * ```ts
 * const first = await recordsOf(log).create('trakt:stop:tt0111161', '{}', 3_600_000)
 * ```
 */
export type LogRecords = Pick<LogDriver, 'create' | 'read' | 'write'>

const storeLogs = new WeakMap<object, MovieLog>()

/** Called by `createMovieLogs`: the log whose records are the store's own, owned by no one. */
export function registerStoreLog(logs: MovieLogs, log: MovieLog): void {
  storeLogs.set(logs, log)
}

/**
 * The records of a log made by `createMovieLog` or `createMovieLogs().of()`. Throws for any other
 * object: a hand-made `MovieLog` has no store to keep them in.
 *
 * @example
 * ```ts
 * await recordsOf(logs.of('alice')).write('trakt:activity', new Date().toISOString(), 86_400_000)
 * ```
 */
export function recordsOf(log: MovieLog): LogRecords {
  const target = importTargetOf(log)
  if (!target) throw new TypeError('movie-log: this log was not made by createMovieLog(s)')
  return target.driver
}

/**
 * The records of the whole store, shared by its owners: the one log's own for `createMovieLog`,
 * and for `createMovieLogs` those of an owner no person can be (`SOLE_OWNER`, the empty name).
 *
 * @example
 * ```ts
 * const deviceCodes = storeRecordsOf(logs)
 * ```
 */
export function storeRecordsOf(source: MovieLog | MovieLogs): LogRecords {
  return recordsOf(storeLogs.get(source) ?? (source as MovieLog))
}
