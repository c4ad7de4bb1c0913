import type { LogDriver } from './driver'
import { MovieValidationError, StoreUnavailableError, type ValidationIssue } from './errors'
import { contentId, idProblem } from './import-id'
import { type ImportTarget, importTargetOf } from './import-target'
import { type Movie, parseNewMovie, sameMovie } from './movie'
import type { MovieLog } from './movie-log'

/**
 * One row to import: a movie (with or without `id`) and the line it came from, or a row its
 * reader already refused (`issues`), reported as it is.
 *
 * @example
 * ```ts
 * const rows: ImportRow[] = movies.map((movie, index) => ({ line: index + 1, movie }))
 * ```
 */
export interface ImportRow {
  /** Where the row was read: a line of a file, or a position in a list. */
  line: number
  /** The movie: the five input fields, and `id` to keep one. */
  movie?: unknown
  /** Set by a reader that could not make a movie of the row: the row is refused with these. */
  issues?: ValidationIssue[]
}

/**
 * What became of one row: `added`, `skipped` (the same movie was there under its id) or
 * `refused` (with `issues`, shaped as `MovieValidationError`'s).
 *
 * @example
 * ```ts
 * const result: ImportRowResult = { line: 3, status: 'refused', issues: [{ path: 'releaseYear', message: 'is required' }] }
 * ```
 */
export interface ImportRowResult {
  line: number
  status: 'added' | 'skipped' | 'refused'
  /** The movie's id, when the row had a valid one or got one. */
  id?: string
  issues?: ValidationIssue[]
}

/**
 * The outcome of an import: counts, and every refused row with its line and issues.
 *
 * @example
 * ```ts
 * const { added, skipped, refused }: ImportReport = await log.importMovies(rows)
 * ```
 */
export interface ImportReport {
  added: number
  skipped: number
  refused: ImportRowResult[]
}

/**
 * Options of `importMovies`.
 *
 * @example
 * ```ts
 * await log.importMovies(rows, { onRow: (row) => row.status === 'refused' && console.error(row) })
 * ```
 */
export interface ImportMoviesOptions {
  /** Called once per row as it is settled, in row order within each batch. */
  onRow?: (result: ImportRowResult) => void
}

// Rows stored at once: enough to hide a network store's round trips, few enough to stay small.
const BATCH = 64

/**
 * Brings movies into a log made by `createMovieLog`, in batches. A row with an `id` keeps it (it
 * must be an id of this log's form); if a movie with that id is there already, the row is
 * skipped when it holds the same content and refused when not. A row without an `id` gets one
 * made from its content (a UUIDv7), so importing the same rows again adds nothing; a log with its
 * own `generateId` gives such rows new ids instead. Refused rows are reported, never thrown;
 * a failing store throws `StoreUnavailableError` (rows settled before it stay stored).
 *
 * @example
 * ```ts
 * const rows = movies.map((movie, index) => ({ line: index + 1, movie }))
 * const { added, skipped, refused } = await importMovies(log, rows)
 * for (const row of refused) console.error(`line ${row.line}:`, row.issues)
 * ```
 */
export async function importMovies(
  log: MovieLog,
  rows: Iterable<ImportRow> | AsyncIterable<ImportRow>,
  options: ImportMoviesOptions = {},
): Promise<ImportReport> {
  const target = importTargetOf(log)
  if (!target) throw new TypeError('importMovies needs a log made by createMovieLog')
  const report: ImportReport = { added: 0, skipped: 0, refused: [] }
  const settle = (result: ImportRowResult) => {
    if (result.status === 'refused') report.refused.push(result)
    else report[result.status] += 1
    options.onRow?.(result)
  }
  let batch: { line: number; movie: Movie }[] = []
  const ids = new Set<string>()
  const flush = async () => {
    const results = await Promise.all(batch.map(({ line, movie }) => storeRow(target, line, movie)))
    for (const result of results) settle(result)
    // Their search and statistics terms too, where adds leave them to the reads, so an import
    // leaves the first search nothing to count. Stored already: if the store fails here, a read
    // counts them in later. Anything else is a bug, and the import's error.
    if (results.some((result) => result.status === 'added')) {
      await target.driver.countTerms?.().catch((error: unknown) => {
        if (!StoreUnavailableError.is(error)) throw error
      })
    }
    batch = []
    ids.clear()
  }
  for await (const row of rows) {
    const prepared = prepare(target, row)
    if ('status' in prepared) {
      settle(prepared)
      continue
    }
    // Two rows with one id in a batch would race each other's check: the first goes alone.
    if (ids.has(prepared.movie.id)) await flush()
    batch.push(prepared)
    ids.add(prepared.movie.id)
    if (batch.length >= BATCH) await flush()
  }
  await flush()
  return report
}

/** The row as a movie to store, or its refusal. */
function prepare(
  target: ImportTarget,
  row: ImportRow,
): { line: number; movie: Movie } | ImportRowResult {
  const { line } = row
  if (row.issues && row.issues.length > 0) return { line, status: 'refused', issues: row.issues }
  const input = row.movie
  const issues: ValidationIssue[] = []
  let id: string | undefined
  let fields: unknown = input
  if (typeof input === 'object' && input !== null && Object.hasOwn(input, 'id')) {
    const { id: given, ...rest } = input as Record<string, unknown>
    const problem = idProblem(given, target.customIds)
    if (problem) issues.push({ path: 'id', message: problem })
    else id = given as string
    fields = rest
  }
  try {
    const movie = parseNewMovie(fields)
    if (issues.length > 0) return { line, status: 'refused', id, issues }
    // Without an id, one from the content (or the log's own generator): see contentId.
    id ??= target.customIds ? target.generateId() : contentId(movie)
    return { line, movie: Object.freeze({ id, ...movie }) }
  } catch (error) {
    if (!MovieValidationError.is(error)) throw error
    return { line, status: 'refused', id, issues: [...issues, ...error.issues] }
  }
}

async function storeRow(target: ImportTarget, line: number, movie: Movie) {
  const stored = await storeOnce(target.driver, movie)
  if (stored === 'added' || stored === 'same') {
    return { line, id: movie.id, status: stored === 'added' ? 'added' : 'skipped' } as const
  }
  const issues = [{ path: 'id', message: 'is already in the log with other content' }]
  return { line, id: movie.id, status: 'refused', issues } as const
}

/**
 * Stores `movie` unless its id is taken: `added`, or `same` / `different` for what is there.
 * The driver's create-if-absent decides, so two imports of one id never both add it.
 */
export async function storeOnce(
  driver: LogDriver,
  movie: Movie,
): Promise<'added' | 'same' | 'different'> {
  if (await driver.put(movie)) return 'added'
  const existing = await driver.get(movie.id)
  // Deleted between the two calls: it is not there with other content, so try again.
  if (!existing) return storeOnce(driver, movie)
  return sameMovie(existing, movie) ? 'same' : 'different'
}
