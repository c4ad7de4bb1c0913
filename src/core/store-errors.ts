import { MovieLogError } from './errors'
import { classifyStoreFailure, STORE_FAILURE_WORDS, type StoreFailureReason } from './store-failure'

/**
 * The store failed or could not be reached (Redis down, database gone, disk full). The same
 * call may succeed once the store is back; an add that failed this way may or may not have
 * been stored (retry it with its idempotency key). The store's own error is kept as `cause`,
 * `reason` says why in one stable word, `storeCode` is the store's own code.
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

  constructor(operation: string, cause: unknown) {
    const { reason, code } = classifyStoreFailure(cause)
    const words = STORE_FAILURE_WORDS[reason]
    super('STORE_UNAVAILABLE', `The movie store is unavailable (${operation}: ${words})`, {
      cause,
    })
    this.reason = reason
    this.storeCode = code
  }
}

/**
 * The store given to `createMovieLog` cannot hold a movie log (it cannot list its keys).
 *
 * @example
 * ```ts
 * createMovieLog(new Keyv({ store: someAdapterWithoutIterator })) // throws UnsupportedStoreError
 * ```
 */
export class UnsupportedStoreError extends MovieLogError {
  override name = 'UnsupportedStoreError'
  protected static override readonly names = ['UnsupportedStoreError']

  constructor(message: string) {
    super('UNSUPPORTED_STORE', message)
  }
}
