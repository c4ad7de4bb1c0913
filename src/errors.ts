/** Stable codes of every error movie-log raises on purpose. */
export type MovieLogErrorCode =
  | 'INVALID_MOVIE'
  | 'INVALID_PAGE_REQUEST'
  | 'STORE_UNAVAILABLE'
  | 'UNSUPPORTED_STORE'

/** One problem found in an input, named by its field (`releaseYear`, `limit`, ...). */
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

  /**
   * True for any movie-log error, also one from another copy of the package, where
   * `instanceof` fails (duplicated installs, bundles).
   *
   * @example
   * ```ts
   * if (MovieLogError.is(error)) return error.code
   * ```
   */
  static is(value: unknown): value is MovieLogError {
    return (
      value instanceof MovieLogError ||
      hasName(
        value,
        /^(MovieLog|MovieValidation|InvalidPageRequest|StoreUnavailable|UnsupportedStore)Error$/,
      )
    )
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
  readonly issues: ValidationIssue[]

  constructor(issues: ValidationIssue[]) {
    super('INVALID_MOVIE', describe('The movie is not valid', issues))
    this.issues = issues
  }

  /**
   * True for a `MovieValidationError`, by class or by name.
   *
   * @example
   * ```ts
   * if (MovieValidationError.is(error)) error.issues
   * ```
   */
  static override is(value: unknown): value is MovieValidationError {
    return value instanceof MovieValidationError || hasName(value, /^MovieValidationError$/)
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
  readonly issues: ValidationIssue[]

  constructor(issues: ValidationIssue[]) {
    super('INVALID_PAGE_REQUEST', describe('The page request is not valid', issues))
    this.issues = issues
  }

  /**
   * True for an `InvalidPageRequestError`, by class or by name.
   *
   * @example
   * ```ts
   * if (InvalidPageRequestError.is(error)) error.issues
   * ```
   */
  static override is(value: unknown): value is InvalidPageRequestError {
    return value instanceof InvalidPageRequestError || hasName(value, /^InvalidPageRequestError$/)
  }
}

/**
 * The store failed or could not be reached (Redis down, database gone). Nothing was changed
 * by the call that raised it; the same call may succeed once the store is back.
 * The store's own error is kept as `cause`.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (StoreUnavailableError.is(error)) retryLater()
 * }
 * ```
 */
export class StoreUnavailableError extends MovieLogError {
  override name = 'StoreUnavailableError'

  constructor(operation: string, cause: unknown) {
    super('STORE_UNAVAILABLE', `The movie store is unavailable (${operation} failed)`, { cause })
  }

  /**
   * True for a `StoreUnavailableError`, by class or by name.
   *
   * @example
   * ```ts
   * if (StoreUnavailableError.is(error)) return 503
   * ```
   */
  static override is(value: unknown): value is StoreUnavailableError {
    return value instanceof StoreUnavailableError || hasName(value, /^StoreUnavailableError$/)
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

  constructor(message: string) {
    super('UNSUPPORTED_STORE', message)
  }

  /**
   * True for an `UnsupportedStoreError`, by class or by name.
   *
   * @example
   * ```ts
   * if (UnsupportedStoreError.is(error)) console.error(error.message)
   * ```
   */
  static override is(value: unknown): value is UnsupportedStoreError {
    return value instanceof UnsupportedStoreError || hasName(value, /^UnsupportedStoreError$/)
  }
}

function hasName(value: unknown, pattern: RegExp): boolean {
  return value instanceof Error && pattern.test(value.name)
}

function describe(summary: string, issues: ValidationIssue[]): string {
  return `${summary}: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}`
}
