/** The log as CSV (CONTRACT: RFC 4180, UTF-8 without BOM, CRLF), both ways. */
import { stringify } from 'csv-stringify/sync'
import type { ValidationIssue } from '../core/errors'
import { FIELDS } from '../core/fields'
import type { Movie } from '../core/movie'

/** The columns of the log's CSV, in order. */
export const MOVIE_CSV_COLUMNS = ['id', ...FIELDS] as const

// Tags in one cell: no tag holds a comma, so `, ` parts them both ways.
const TAG_SEPARATOR = ', '
/** The column an import's unmatched file adds (src/formats/unmatched-csv.ts): read past. */
export const CANDIDATES_COLUMN = 'candidates'

// A spreadsheet runs a cell that starts with one of these as a formula (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/
// A cell that already starts with the guard and one of those: guarded too, so reading strips
// exactly one quote and every text comes back as it was written.
const GUARDED_START = /^'[=+\-@\t\r']/

/** A text as a safe CSV cell: prefixed with `'` where a spreadsheet would run it. */
export function guardCell(text: string): string {
  return FORMULA_START.test(text) || GUARDED_START.test(text) ? `'${text}` : text
}

/** A cell as it was before `guardCell`. */
export function unguardCell(cell: string): string {
  return GUARDED_START.test(cell) ? cell.slice(1) : cell
}

/**
 * CSV lines (CRLF) of `rows`, every cell guarded. RFC 4180 quotes a cell holding a comma, a
 * quote, CR or LF: csv-stringify quotes the first two and its own record delimiter, so a bare CR
 * or LF is named too (a spreadsheet ends a row at either).
 */
export function csvLines(rows: (string | number)[][]): string {
  const guarded = rows.map((row) => row.map((cell) => guardCell(String(cell))))
  return stringify(guarded, { record_delimiter: '\r\n', quoted_match: /[\r\n]/ })
}

const NUMBERS = new Set(['releaseYear', 'rating'])

/** The header line of the log's CSV. */
export const movieCsvHeader = (): string => csvLines([[...MOVIE_CSV_COLUMNS]])

/** Movies as lines of the log's CSV. */
export function movieCsvLines(movies: readonly Movie[]): string {
  if (movies.length === 0) return ''
  return csvLines(
    movies.map((movie) => [
      movie.id,
      movie.title,
      movie.screenedDate,
      movie.releaseYear,
      movie.imdbLink,
      movie.notes,
      movie.rating ?? '',
      movie.tags?.join(TAG_SEPARATOR) ?? '',
    ]),
  )
}

/**
 * A record of the log's CSV (`header` its first record) as an import row's movie: cells
 * unguarded, an empty `id`, `rating` or `tags` left out, a `releaseYear` or `rating` of digits
 * read as a number (anything else stays text, for the field rules to refuse by name), `tags`
 * split at commas. A CSV from before ratings and tags, without those columns, reads as it did.
 */
export function movieFromCsv(
  header: readonly string[],
  record: readonly string[],
): { movie?: Record<string, unknown>; issues?: ValidationIssue[] } {
  if (record.length !== header.length) {
    const message = `has ${record.length} cells where the header has ${header.length}`
    return { issues: [{ path: '', message }] }
  }
  const movie: Record<string, unknown> = {}
  header.forEach((column, index) => {
    const cell = unguardCell(record[index] as string)
    if (column === CANDIDATES_COLUMN) return
    if (cell === '' && (column === 'id' || column === 'rating' || column === 'tags')) return
    if (column === 'tags') movie.tags = cell.split(',')
    else movie[column] = NUMBERS.has(column) && /^\d{1,9}$/.test(cell) ? Number(cell) : cell
  })
  return { movie }
}
