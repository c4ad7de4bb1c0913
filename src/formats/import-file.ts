/**
 * A file into a log, whatever it is: what `movie-log import` and `POST {base}/import` both do.
 * The file is told apart (readImport), read, matched through the catalog when it is a history,
 * and imported; every row's id is made from the row, so a second import adds nothing.
 */
import type { Catalog } from '../core/catalog'
import { type ImportReport, type ImportRowResult, importMovies } from '../core/import'
import type { MovieLog } from '../core/movie-log'
import { importHistory } from './import-history'
import { importRatings, type RatingsReport } from './import-ratings'
import { readImport } from './import-reader'
import { readHistory, readTraktRatings } from './read-history'
import type { UnmatchedRow } from './unmatched-csv'

/**
 * How a file is imported.
 *
 * @example
 * ```ts
 * const options: ImportFileOptions = { name: 'diary.zip', format: 'auto', timeZone: 'Europe/Paris' }
 * ```
 */
export interface ImportFileOptions {
  /** The file's name in messages: `history.csv`, `the file`. */
  name: string
  /** One of importFormatNames(); default `auto`. */
  format?: string
  /** The zone Trakt's instants are written in (`screenedDate` is local time). */
  timeZone?: string
  /** A Netflix history's day form, such as `DD/MM/YYYY`, when its days do not tell. */
  dateFormat?: string
  /** The IMDb catalog titles are matched through, opened when a history needs it. */
  catalog?: () => Promise<Catalog | undefined>
  /** The most a history may take: it is held whole. */
  maxHistoryBytes: number
  /** The file's size in bytes, when known: progress through a stream of rows is in bytes. */
  size?: number
  /** Called as rows settle: how far (rows of a history, else bytes), and of how much. */
  onProgress?: (done: number, total: number | undefined) => void
  /** Called once per row as it is settled. */
  onRow?: (row: ImportRowResult) => void
}

/**
 * What became of a file: the import's counts and refused rows, what it was read as, and for a
 * history what matching and reading set aside (all zero for a file of movies).
 *
 * @example
 * ```ts
 * const { added, skipped, matched, unmatched } = await importFile(log, chunks, options)
 * ```
 */
export interface ImportFileReport extends ImportReport {
  /**
   * `history` for a Letterboxd, Trakt or Netflix history; `ratings` for Trakt's ratings, which
   * rate the diary's entries and add none; `movies` for the rest.
   */
  kind: 'history' | 'ratings' | 'movies'
  /** Entries a ratings file rated (their latest entry of each movie). */
  rated: number
  /** Movies a ratings file rated that the diary has no entry of. */
  notInDiary: number
  /** Screenings the catalog named (a service's own IMDb id is not counted). */
  matched: number
  /** Rows neither matched nor guessed, with the catalog's candidates: to correct and import. */
  unmatched: UnmatchedRow[]
  episodes: number
  trailers: number
}

/**
 * Imports the file `chunks` carry into `log`. A file refused whole (ImportFileError: not of its
 * format, of none movie-log reads, a day form to name) stores nothing; a row refused is
 * reported with its line, and the rest imported.
 *
 * @example
 * ```ts
 * const report = await importFile(log, createReadStream('diary.zip'), { name: 'diary.zip', maxHistoryBytes: 2 ** 28 })
 * ```
 */
export async function importFile(
  log: MovieLog,
  chunks: AsyncIterable<Uint8Array>,
  options: ImportFileOptions,
): Promise<ImportFileReport> {
  let bytes = 0
  async function* counted() {
    for await (const chunk of chunks) {
      bytes += chunk.byteLength
      yield chunk
    }
  }
  const { name, onProgress, onRow } = options
  const source = await readImport(
    counted(),
    options.format ?? 'auto',
    name,
    options.maxHistoryBytes,
  )
  if (source.kind === 'rows') {
    const settle = (row: ImportRowResult) => {
      onRow?.(row)
      onProgress?.(bytes, options.size)
    }
    const report: ImportReport = await importMovies(log, source.rows, { onRow: settle })
    return { ...report, ...NOTHING_ELSE, kind: 'movies' }
  }
  const ratings = source.format === 'trakt' ? readTraktRatings(source.bytes, name) : undefined
  if (ratings) {
    const catalog = await options.catalog?.()
    const rated = await importRatings(log, ratings, catalog, (done) => {
      onProgress?.(done, ratings.length)
    })
    for (const row of rated.refused) onRow?.(row)
    return ratingsReport(rated)
  }
  // A history is read whole before its rows: its progress is in rows, not bytes.
  const history = { timeZone: options.timeZone, dateFormat: options.dateFormat }
  const rows = readHistory(source.bytes, name, source.format, history)
  const catalog = await options.catalog?.()
  const report = await importHistory(
    log,
    rows,
    catalog,
    (row) => onRow?.(row),
    (done) => onProgress?.(done, rows.length),
  )
  return { ...report, rated: 0, notInDiary: 0, kind: 'history' }
}

const NOTHING_ELSE = {
  matched: 0,
  unmatched: [],
  episodes: 0,
  trailers: 0,
  rated: 0,
  notInDiary: 0,
}

function ratingsReport(report: RatingsReport): ImportFileReport {
  const { rated, notInDiary, skipped, refused, matched, episodes } = report
  return {
    ...NOTHING_ELSE,
    kind: 'ratings',
    added: 0,
    skipped,
    refused,
    matched,
    episodes,
    rated,
    notInDiary,
  }
}
