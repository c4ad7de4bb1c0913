/**
 * The rows an import could not match, as the log's CSV with a `candidates` column: the person
 * writes the right `imdbLink` (and `releaseYear` if empty) and imports the file again.
 */
import type { CatalogEntry } from '../core/catalog'
import { CANDIDATES_COLUMN, csvLines, MOVIE_CSV_COLUMNS } from './movie-csv'

/**
 * A row the catalog did not match: the movie as far as it is known, its id made from its source
 * (so the corrected row is the same movie), and what the catalog offered.
 *
 * @example
 * ```ts
 * const row: UnmatchedRow = { movie: { id, title: 'Heat', screenedDate, releaseYear: '', imdbLink: '', notes: '' }, candidates: [] }
 * ```
 */
export interface UnmatchedRow {
  movie: Record<(typeof MOVIE_CSV_COLUMNS)[number], string | number>
  candidates: readonly CatalogEntry[]
}

const describe = ({ imdbLink, title, year }: CatalogEntry) =>
  `${imdbLink} ${title}${year === undefined ? '' : ` (${year})`}`

/**
 * The unmatched file: header and rows, CRLF, cells guarded as the export guards them.
 *
 * @example
 * ```ts
 * await writeFile('unmatched.csv', unmatchedCsv(rows))
 * ```
 */
export function unmatchedCsv(rows: readonly UnmatchedRow[]): string {
  return csvLines([
    [...MOVIE_CSV_COLUMNS, CANDIDATES_COLUMN],
    ...rows.map(({ movie, candidates }) => [
      ...MOVIE_CSV_COLUMNS.map((column) => movie[column]),
      candidates.map(describe).join(' | '),
    ]),
  ])
}
