import { classifyStoreFailure, STORE_FAILURE_WORDS, type StoreFailureReason } from './store-failure'

/**
 * Stable codes of every error movie-log raises on purpose.
 *
 * @example
 * ```ts
 * if (MovieLogError.is(error) && error.code === 'STORE_UNAVAILABLE') retryLater()
 * ```
 */
export type MovieLogErrorCode =
  | 'INVALID_MOVIE'
  | 'INVALID_PAGE_REQUEST'
  | 'STORE_UNAVAILABLE'
  | 'UNSUPPORTED_STORE'
  | 'IDEMPOTENCY_KEY_INVALID'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENCY_KEY_IN_FLIGHT'
  | 'MOVIE_NOT_FOUND'
  | 'PRECONDITION_FAILED'
  | 'INVALID_OWNER'

/** The message of the one issue about a body itself, not a field: its `path` is `''`. */
export const NOT_A_JSON_OBJECT = 'must be a JSON object'

/**
 * One problem found in an input, named by its field (`releaseYear`, `limit`, ...).
 *
 * @example
 * ```ts
 * const issue: ValidationIssue = { path: 'releaseYear', message: 'must be from 1870 to 9999' }
 * ```
 */
export interface ValidationIssue {
  path: string
  message: string
}

/**
 * The base of every movie-log error: a stable `code`, the original `cause` when there is one.
 *
 * @example
 * ```ts
 * try { await log.addMovie(input) } catch (error) {
 *   if (MovieLogError.is(error)) console.log(error.code)
 * }
 * ```
 */
export class MovieLogError extends Error {
  override name = 'MovieLogError'
  readonly code: MovieLogErrorCode

  constructor(code: MovieLogErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }

  /** Error names this class answers to in `is`: its own and its subclasses'. */
  protected static readonly names: readonly string[] = [
    'MovieLogError',
    'MovieValidationError',
    'InvalidPageRequestError',
    'StoreUnavailableError',
    'UnsupportedStoreError',
    'IdempotencyError',
    'MovieNotFoundError',
    'PreconditionFailedError',
    'InvalidOwnerError',
  ]

  /**
   * True for an error of this class (`MovieLogError.is`: any movie-log error), also one from
   * another copy of the package, where `instanceof` fails (duplicated installs, bundles).
   *
   * @example
   * ```ts
   * if (MovieValidationError.is(error)) console.table(error.issues)
   * if (MovieLogError.is(error)) return error.code
   * ```
   */
  static is<T extends abstract new (...args: never[]) => MovieLogError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class `is` was called on
    const names = (this as unknown as { names: readonly string[] }).names
    // biome-ignore lint/complexity/noThisInStatic: as above
    return value instanceof this || (value instanceof Error && names.includes(value.name))
  }
}

/**
 * A movie failed the field rules. `issues` lists every problem at once, each naming its field.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (MovieValidationError.is(error)) console.table(error.issues)
 * }
 * ```
 */
export class MovieValidationError extends MovieLogError {
  override name = 'MovieValidationError'
  protected static override readonly names = ['MovieValidationError']
  readonly issues: ValidationIssue[]

  constructor(issues: ValidationIssue[]) {
    super('INVALID_MOVIE', describe('The movie is not valid', issues))
    this.issues = issues
  }
}

/**
 * `listMovies` was asked for a page it cannot give: a `limit` that is not a positive integer,
 * or a `cursor` that this log did not make.
 *
 * @example
 * ```ts
 * await log.listMovies({ cursor: 'forged' }) // throws InvalidPageRequestError
 * ```
 */
export class InvalidPageRequestError extends MovieLogError {
  override name = 'InvalidPageRequestError'
  protected static override readonly names = ['InvalidPageRequestError']
  readonly issues: ValidationIssue[]

  constructor(issues: ValidationIssue[]) {
    super('INVALID_PAGE_REQUEST', describe('The page request is not valid', issues))
    this.issues = issues
  }
}

function describe(summary: string, issues: ValidationIssue[]): string {
  return `${summary}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`
}

/**
 * An `addMovie` with an idempotency key that cannot go ahead: the key is malformed
 * (`IDEMPOTENCY_KEY_INVALID`), was used with another movie (`IDEMPOTENCY_KEY_REUSED`), or its
 * first request is still being handled (`IDEMPOTENCY_KEY_IN_FLIGHT`: retry shortly).
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (IdempotencyError.is(error) && error.code === 'IDEMPOTENCY_KEY_IN_FLIGHT') retrySoon()
 * }
 * ```
 */
export class IdempotencyError extends MovieLogError {
  override name = 'IdempotencyError'
  protected static override readonly names = ['IdempotencyError']

  constructor(
    code: 'IDEMPOTENCY_KEY_INVALID' | 'IDEMPOTENCY_KEY_REUSED' | 'IDEMPOTENCY_KEY_IN_FLIGHT',
    message: string,
  ) {
    super(code, message)
  }
}

/**
 * `updateMovie` or `deleteMovie` without `ifMatch` named a movie the log does not have
 * (HTTP 404).
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (MovieNotFoundError.is(error)) console.log('already gone:', error.id)
 * }
 * ```
 */
export class MovieNotFoundError extends MovieLogError {
  override name = 'MovieNotFoundError'
  protected static override readonly names = ['MovieNotFoundError']
  readonly id: string

  constructor(id: string) {
    super('MOVIE_NOT_FOUND', 'There is no movie with this id')
    this.id = id
  }
}

/**
 * The movie is no longer the version `ifMatch` named (someone changed or deleted it since it
 * was read), so nothing was changed (HTTP 412). Read it again and decide.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (PreconditionFailedError.is(error)) showLatest(await log.getMovie(id))
 * }
 * ```
 */
export class PreconditionFailedError extends MovieLogError {
  override name = 'PreconditionFailedError'
  protected static override readonly names = ['PreconditionFailedError']
  readonly id: string

  constructor(id: string) {
    super(
      'PRECONDITION_FAILED',
      'The movie was changed or deleted since that version was read; nothing was changed',
    )
    this.id = id
  }
}

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

/**
 * `logs.of(owner)` or `logs.drop(owner)` named an owner movie-log cannot keep apart from every
 * other: not a string, empty, longer than 256 characters, or holding U+0000 or a lone surrogate.
 *
 * @example
 * ```ts
 * logs.of('') // throws InvalidOwnerError
 * ```
 */
export class InvalidOwnerError extends MovieLogError {
  override name = 'InvalidOwnerError'
  protected static override readonly names = ['InvalidOwnerError']

  constructor(message: string) {
    super('INVALID_OWNER', message)
  }
}
