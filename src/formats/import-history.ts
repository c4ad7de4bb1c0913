/**
 * A Letterboxd, Trakt or Netflix history into a log: each screening matched to its IMDb entry
 * (its own id, else the catalog's one entry), the rest kept for the unmatched file.
 */
import type { Catalog } from '../core/catalog'
import {
  type ImportReport,
  type ImportRow,
  type ImportRowResult,
  importMovies,
} from '../core/import'
import { sourceId } from '../core/import-id'
import type { MovieLog } from '../core/movie-log'
import type { HistoryRow } from './history'
import { matchScreening } from './match-screening'
import type { UnmatchedRow } from './unmatched-csv'

/** What became of a history: the import's report, and what matching and reading set aside. */
export interface HistoryReport extends ImportReport {
  /** Screenings the catalog named (a service's own IMDb id is not counted). */
  matched: number
  unmatched: UnmatchedRow[]
  episodes: number
  trailers: number
}

/**
 * Imports `rows` into `log`. Every screening's id is made from its source row (sourceId), so a
 * second run adds nothing, and a row corrected in the unmatched file is the same movie: one not
 * matched this time but in the log already (corrected and imported before) counts as skipped.
 * `onDone` hears how many rows are done with: settled, or set aside (unmatched, passed over).
 */
export async function importHistory(
  log: MovieLog,
  rows: readonly HistoryRow[],
  catalog: Catalog | undefined,
  onRow: (row: ImportRowResult) => void,
  onDone: (rows: number) => void = () => {},
): Promise<HistoryReport> {
  const set = { matched: 0, episodes: 0, trailers: 0, there: 0, unmatched: [] as UnmatchedRow[] }
  let done = 0
  const doneWith = () => onDone(++done)
  async function* importRows(): AsyncGenerator<ImportRow> {
    for (const row of rows) {
      if ('passedOver' in row) {
        set[row.passedOver === 'episode' ? 'episodes' : 'trailers'] += 1
        doneWith()
      }
      if (!('screening' in row)) {
        if ('issues' in row) yield row
        continue
      }
      const { source, title, screenedDate, notes, releaseYear } = row.screening
      const id = sourceId(source, screenedDate)
      const found = await matchScreening(row.screening, catalog)
      if ('candidates' in found) {
        if (await log.getMovie(id)) set.there += 1
        else {
          const movie = {
            id,
            title,
            screenedDate,
            releaseYear: releaseYear ?? '',
            imdbLink: '',
            notes,
            // Kept in the file to correct, so a corrected row keeps what was thought of it.
            rating: row.screening.rating ?? '',
            tags: row.screening.tags?.join(', ') ?? '',
          }
          set.unmatched.push({ movie, candidates: found.candidates })
        }
        doneWith()
        continue
      }
      if (found.via === 'catalog') set.matched += 1
      const { imdbLink } = found
      const { rating, tags } = row.screening
      const movie = { id, title, screenedDate, releaseYear: found.releaseYear, imdbLink, notes }
      yield {
        line: row.line,
        movie: { ...movie, ...(rating && { rating }), ...(tags && { tags }) },
      }
    }
  }
  const settled = (row: ImportRowResult) => {
    onRow(row)
    doneWith()
  }
  const report = await importMovies(log, importRows(), { onRow: settled })
  const { matched, episodes, trailers, unmatched } = set
  return { ...report, skipped: report.skipped + set.there, matched, unmatched, episodes, trailers }
}
