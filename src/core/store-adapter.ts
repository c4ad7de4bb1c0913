import type { StoreDriver } from './driver'

/** What a store's driver is opened with. */
export interface StoreOpenOptions {
  /** The log's key namespace (or table namespace) in the store. */
  namespace: string
  /** How long connecting may take, in ms. */
  connectTimeoutMs: number
  /** The log's bound on one store call, in ms (`storeTimeoutMs`, default 5000). */
  storeTimeoutMs?: number
}

/**
 * A store for `createMovieLog` and `createMovieLogs`, as each driver's subpath makes one:
 * `sqlite('./data/movies.sqlite')`, `d1(env.DB)`, `redis('redis://…')`, `postgres('postgres://…')`,
 * `memory()`. The log opens it on its first call, once; `close()` closes what it opened.
 *
 * @example
 * ```ts
 * import { createMovieLog } from 'movie-log'
 * import { sqlite } from 'movie-log/sqlite'
 *
 * const log = createMovieLog(sqlite('./data/movies.sqlite'))
 * ```
 */
export interface StoreAdapter {
  /** The store's kind, for messages: `sqlite`, `d1`, `redis`… */
  readonly kind: string
  /** Whether its calls can hang (a store across a network or a lock): they get the store timeout. */
  readonly remote: boolean
  /** Opens the store's driver: connects, checks the server, creates what is missing. */
  open(options: StoreOpenOptions): Promise<StoreDriver>
  /**
   * Which errors of `open` are the store failing (503, retried), and why. Without it, the
   * errors of sockets and files (`ECONNREFUSED`, `ENOSPC`, ...) are; any other is a bug (500).
   */
  readonly classifyFailure?: StoreDriver['classifyFailure']
}

/** Whether `store` is a `StoreAdapter` (and not a Keyv, an adapter of keyv's or a `Map`). */
export function isStoreAdapter(store: unknown): store is StoreAdapter {
  const candidate = store as Partial<StoreAdapter> | null | undefined
  return (
    typeof candidate?.open === 'function' &&
    typeof candidate.kind === 'string' &&
    typeof candidate.remote === 'boolean'
  )
}
