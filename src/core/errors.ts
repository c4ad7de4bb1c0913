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
