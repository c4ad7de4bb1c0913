/** Why a whole import file is refused, before any row of it is stored. */

/**
 * A file an import cannot read as a whole: not of the format named, of no format movie-log
 * reads, or its days in a form that must be named. Nothing of it is stored. `option` names what
 * the caller may change (the format, or the day form), `suggestion` a value of it to try.
 *
 * @example
 * ```ts
 * try {
 *   await importFile(log, chunks, { name: 'history.csv' })
 * } catch (error) {
 *   if (ImportFileError.is(error)) console.error(error.message)
 * }
 * ```
 */
export class ImportFileError extends Error {
  override name = 'ImportFileError'
  /** The choice the refusal is about: the format given, or the day form (`dateFormat`). */
  readonly option: 'format' | 'dateFormat' | undefined
  /** The file is of no kind movie-log reads (rather than a bad file of a kind it reads). */
  readonly unsupported: boolean
  /** A value of `option` that would read the file: a day form, such as `DD/MM/YY`. */
  readonly suggestion: string | undefined

  constructor(
    message: string,
    details: { option?: 'format' | 'dateFormat'; unsupported?: boolean; suggestion?: string } = {},
  ) {
    super(message)
    this.option = details.option
    this.unsupported = details.unsupported ?? false
    this.suggestion = details.suggestion
  }

  /** Whether `error` is one, by name as well (a copy of movie-log loaded twice). */
  static is(error: unknown): error is ImportFileError {
    return error instanceof Error && error.name === 'ImportFileError'
  }
}
