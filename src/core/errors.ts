// The core's errors: codes, classes, store failure reasons (read by each driver's classifier).

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
  | 'LOG_CLOSED'
  | 'NAMESPACE_CONFLICT'
  | 'FEED_UNAVAILABLE'
  | 'IDEMPOTENCY_KEY_INVALID'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENCY_KEY_IN_FLIGHT'
  | 'MOVIE_NOT_FOUND'
  | 'PRECONDITION_FAILED'
  | 'INVALID_OWNER'
  | 'CATALOG_NOT_LOADED'
  | 'INVALID_WEBHOOK'

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
 * catch (error) { if (MovieLogError.is(error)) console.log(error.code) }
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
    'LogClosedError',
    'NamespaceConflictError',
    'FeedUnavailableError',
    'IdempotencyError',
    'MovieNotFoundError',
    'PreconditionFailedError',
    'InvalidOwnerError',
    'CatalogNotLoadedError',
    'WebhookValidationError',
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
 * catch (error) { if (MovieValidationError.is(error)) console.table(error.issues) }
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
 * if (IdempotencyError.is(error) && error.code === 'IDEMPOTENCY_KEY_IN_FLIGHT') retrySoon()
 * ```
 */
export class IdempotencyError extends MovieLogError {
  override name = 'IdempotencyError'
  protected static override readonly names = ['IdempotencyError']

  constructor(code: Extract<MovieLogErrorCode, `IDEMPOTENCY_${string}`>, message: string) {
    super(code, message)
  }
}

/**
 * `updateMovie` or `deleteMovie` without `ifMatch` named a movie the log does not have (404).
 *
 * @example
 * ```ts
 * catch (error) { if (MovieNotFoundError.is(error)) console.log('already gone:', error.id) }
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
 * catch (error) { if (PreconditionFailedError.is(error)) showLatest(await log.getMovie(id)) }
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
 * A store this runtime cannot open: a keyv store that cannot list its keys, a malformed URL, a
 * version movie-log does not know, or a client package not installed (`missingPackage`).
 * Not retryable: it fails the same way until the setup changes.
 *
 * @example
 * ```ts
 * if (UnsupportedStoreError.is(error)) console.error(error.missingPackage ?? error.message)
 * ```
 */
export class UnsupportedStoreError extends MovieLogError {
  override name = 'UnsupportedStoreError'
  protected static override readonly names = ['UnsupportedStoreError']
  /** The optional package the store needs and this install lacks (`'@keyv/redis'`), if that is why. */
  readonly missingPackage: string | undefined

  constructor(message: string, options: { cause?: unknown; missingPackage?: string } = {}) {
    super('UNSUPPORTED_STORE', message, 'cause' in options ? { cause: options.cause } : {})
    this.missingPackage = options.missingPackage
  }
}

/**
 * A call on a log after its `close()` released its store: create another log. Not retryable.
 *
 * @example
 * ```ts
 * await log.close(); await log.listMovies() // throws LogClosedError
 * ```
 */
export class LogClosedError extends MovieLogError {
  override name = 'LogClosedError'
  protected static override readonly names = ['LogClosedError']

  constructor(message = 'This movie log was closed: create another to use the store') {
    super('LOG_CLOSED', message)
  }
}

/**
 * Two namespaces for one store that disagree: a Keyv's own and `options.namespace`, or an
 * adapter already serving another movie-log namespace (a keyv adapter keeps one).
 *
 * @example
 * ```ts
 * createMovieLog(new Keyv({ namespace: 'a' }), { namespace: 'b' }) // throws NamespaceConflictError
 * ```
 */
export class NamespaceConflictError extends MovieLogError {
  override name = 'NamespaceConflictError'
  protected static override readonly names = ['NamespaceConflictError']

  constructor(message: string) {
    super('NAMESPACE_CONFLICT', message)
  }
}

/**
 * The server a client watches offers no live change feed (an older server, a proxy in the
 * way): retrying will not help; poll `listMovies` instead.
 *
 * @example
 * ```ts
 * catch (error) { if (FeedUnavailableError.is(error)) pollEvery(30_000) }
 * ```
 */
export class FeedUnavailableError extends MovieLogError {
  override name = 'FeedUnavailableError'
  protected static override readonly names = ['FeedUnavailableError']

  constructor(message: string) {
    super('FEED_UNAVAILABLE', message)
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

/**
 * Why the store failed, as far as its error tells:
 * - `'unreachable'`: refused, reset, unknown host, or the server ended the connection
 *   (a restart, a failover, an idle-connection reaper);
 * - `'timeout'`: no answer in time (connecting, or the call itself past `storeTimeoutMs`);
 * - `'too-many-connections'`: new connections refused (PostgreSQL's limits, Redis's `maxclients`);
 * - `'disk-full'`: the store's disk (or quota) is full;
 * - `'read-only'`: writes refused (a read-only file or replica, Redis unable to persist);
 * - `'auth-failed'`: the store refused the credentials;
 * - `'busy'`: locked by another writer past the wait allowed, or a deadlock;
 * - `'unknown'`: the driver knows the store failed, but not which of these it was.
 *
 * @example
 * ```ts
 * if (StoreUnavailableError.is(error) && error.reason === 'disk-full') alertOperator()
 * ```
 */
export type StoreFailureReason = keyof typeof STORE_FAILURE_WORDS

/** A few words per reason, for messages and logs: the one list of the reasons. */
export const STORE_FAILURE_WORDS = {
  unreachable: 'cannot be reached',
  timeout: 'no answer in time',
  'too-many-connections': 'too many connections',
  'disk-full': 'disk full',
  'read-only': 'read-only, refuses writes',
  'auth-failed': 'credentials refused',
  busy: 'busy, locked by another writer',
  unknown: 'failed',
} as const

/** Every reason, in the table's order: to read one from outside (a problem's `reason`). */
export const STORE_FAILURE_REASONS = Object.keys(
  STORE_FAILURE_WORDS,
) as readonly StoreFailureReason[]

/**
 * A store failure as a driver's classifier reads it: why, and the store's code when it gave one.
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

/** Raised by movie-log itself when a store call outlives its timeout: the store said nothing. */
export class StoreTimeoutError extends Error {
  override name = 'StoreTimeoutError'
}

/**
 * The store failed or could not be reached (Redis down, database gone, disk full). The same
 * call may succeed once the store is back; an add that failed this way may or may not have
 * been stored (retry it with its idempotency key). The store's own error is kept as `cause`.
 *
 * @example
 * ```ts
 * catch (error) { if (StoreUnavailableError.is(error)) retryLater(error.reason, error.storeCode) }
 * ```
 */
export class StoreUnavailableError extends MovieLogError {
  override name = 'StoreUnavailableError'
  protected static override readonly names = ['StoreUnavailableError']
  /** Why, read by the store's driver from its client's error; over HTTP, the problem's `reason`. */
  readonly reason: StoreFailureReason
  /**
   * The store's own code, for logs, never sent over HTTP: an errno (`ECONNREFUSED`), a SQLSTATE
   * (`57P01`), `SQLITE_FULL`, a Redis reply (`READONLY`), a node-redis class name.
   */
  readonly storeCode: string | undefined
  /**
   * A write that timed out: the store may have stored it all the same. Retry it only where safe:
   * an add with its idempotency key, or after reading what the log holds. Over HTTP, a 503 with
   * `reason: 'timeout'` whose `detail` says so.
   */
  readonly mayHaveLanded: boolean

  constructor(operation: string, cause: unknown, failure: StoreFailure = { reason: 'unknown' }) {
    const words = STORE_FAILURE_WORDS[failure.reason] ?? STORE_FAILURE_WORDS.unknown
    const message = `The movie store is unavailable (${operation}: ${words})`
    super('STORE_UNAVAILABLE', message, { cause })
    this.reason = failure.reason
    this.storeCode = failure.code
    this.mayHaveLanded = failure.mayHaveLanded === true
  }
}

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
