/**
 * What the core knows of a store failure: the few reasons an operator can act on, the timeout
 * it raises itself, and the error it raises for both. Which error of which client means which
 * reason is each driver's own knowledge (its `classifyFailure`, behind the port), never the core's.
 */
import { MovieLogError } from './errors'

/**
 * Why the store failed, as far as its error tells:
 * - `'unreachable'`: refused, reset, unknown host, or the server ended the connection
 *   (a restart, a failover, an idle-connection reaper);
 * - `'timeout'`: no answer in time (connecting, or the call itself past `storeTimeoutMs`);
 * - `'too-many-connections'`: the store refuses new connections (PostgreSQL's connection
 *   limits, Redis's `maxclients`);
 * - `'disk-full'`: the store's disk (or quota) is full;
 * - `'read-only'`: the store refuses writes (a read-only file or replica, Redis unable to
 *   persist);
 * - `'auth-failed'`: the store refused the credentials;
 * - `'busy'`: locked by another writer past the wait allowed, or a deadlock;
 * - `'unknown'`: the driver knows the store failed, but not which of these it was.
 *
 * @example
 * ```ts
 * if (StoreUnavailableError.is(error) && error.reason === 'disk-full') alertOperator()
 * ```
 */
/**
 * An error, the errors it gathers (a refused connect to each address of a host) and its causes,
 * four deep at most: where a store client's own error code is found.
 */
export function* errorChain(error: unknown, depth = 0): Generator<Error> {
  if (!(error instanceof Error) || depth > 4) return
  yield error
  if (error instanceof AggregateError)
    for (const inner of error.errors) yield* errorChain(inner, depth + 1)
  yield* errorChain(error.cause, depth + 1)
}

export type StoreFailureReason =
  | 'unreachable'
  | 'timeout'
  | 'too-many-connections'
  | 'disk-full'
  | 'read-only'
  | 'auth-failed'
  | 'busy'
  | 'unknown'

/** Every reason, for those that read one from outside (a problem's `reason`). */
export const STORE_FAILURE_REASONS: readonly StoreFailureReason[] = [
  'unreachable',
  'timeout',
  'too-many-connections',
  'disk-full',
  'read-only',
  'auth-failed',
  'busy',
  'unknown',
]

/**
 * A store failure as a driver's classifier reads it: why, and the store's own code for it
 * (`ECONNREFUSED`, `57P01`, `SQLITE_FULL`, `READONLY`, a node-redis class name) when it gave one.
 *
 * @example
 * ```ts
 * const failure: StoreFailure = { reason: 'too-many-connections', code: '53300' }
 * ```
 */
export interface StoreFailure {
  reason: StoreFailureReason
  code?: string | undefined
  /** A write that failed this way may have been stored all the same (it timed out). */
  mayHaveLanded?: boolean
}

/** A few words per reason, for messages and logs. */
export const STORE_FAILURE_WORDS: Record<StoreFailureReason, string> = {
  unreachable: 'cannot be reached',
  timeout: 'no answer in time',
  'too-many-connections': 'too many connections',
  'disk-full': 'disk full',
  'read-only': 'read-only, refuses writes',
  'auth-failed': 'credentials refused',
  busy: 'busy, locked by another writer',
  unknown: 'failed',
}

/** Raised by movie-log itself when a store call outlives its timeout: the store said nothing. */
export class StoreTimeoutError extends Error {
  override name = 'StoreTimeoutError'
}

/**
 * The store failed or could not be reached (Redis down, database gone, disk full). The same
 * call may succeed once the store is back; an add that failed this way may or may not have
 * been stored (retry it with its idempotency key). The store's own error is kept as `cause`,
 * `reason` says why in one stable word (read by the store's driver from its client's error;
 * over HTTP, carried in the problem details), `storeCode` is the store's own code (never sent
 * over HTTP).
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (StoreUnavailableError.is(error)) {
 *     console.warn(error.reason, error.storeCode) // 'too-many-connections' '53300'
 *     retryLater()
 *   }
 * }
 * ```
 */
export class StoreUnavailableError extends MovieLogError {
  override name = 'StoreUnavailableError'
  protected static override readonly names = ['StoreUnavailableError']
  /** Why the store failed: `'unreachable'`, `'timeout'`, `'disk-full'`, ... (see the type). */
  readonly reason: StoreFailureReason
  /**
   * The store's own error code, when it gave one: a Node errno (`ECONNREFUSED`), a PostgreSQL
   * SQLSTATE (`57P01`, `53300`), a SQLite code (`SQLITE_FULL`), a Redis reply (`READONLY`) or
   * a node-redis error class (`ClientOfflineError`). For logs; `reason` is the stable part.
   */
  readonly storeCode: string | undefined
  /**
   * True when the call was a write that timed out: the store may have stored it all the same
   * (it was sent, and no answer said otherwise). Retry it only where a retry is safe: an add
   * with its idempotency key, or after reading what the log holds. Over HTTP, such a 503 has
   * `reason: 'timeout'` and says so in its `detail`.
   */
  readonly mayHaveLanded: boolean

  constructor(operation: string, cause: unknown, failure: StoreFailure = { reason: 'unknown' }) {
    const words = STORE_FAILURE_WORDS[failure.reason] ?? STORE_FAILURE_WORDS.unknown
    super('STORE_UNAVAILABLE', `The movie store is unavailable (${operation}: ${words})`, {
      cause,
    })
    this.reason = failure.reason
    this.storeCode = failure.code
    this.mayHaveLanded = failure.mayHaveLanded === true
  }
}
