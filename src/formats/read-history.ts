/** A Letterboxd, Trakt or Netflix file, read whole, as history rows. */
import { parse } from 'csv-parse/sync'
import { unzipSync } from 'fflate'
import type { HistoryRow } from './history'
import { ImportFileError } from './import-refusal'
import { isLetterboxdDiaryHeader, letterboxdReviews, letterboxdScreening } from './letterboxd-diary'
import { dayReader, isNetflixHeader, netflixDateFormats, netflixScreening } from './netflix'
import { isTraktHeader, traktCsvScreening, traktJsonScreenings } from './trakt'
import {
  isTraktRatingsHeader,
  isTraktRatingsJson,
  type RatingRow,
  traktRatingsCsvRow,
  traktRatingsJson,
} from './trakt-ratings'

/** The services whose histories `movie-log import` reads. */
export const HISTORY_FORMATS = ['letterboxd', 'trakt', 'netflix'] as const
export type HistoryFormat = (typeof HISTORY_FORMATS)[number]

/** How a history is read: the log's zone (Trakt's instants), the day form (Netflix's days). */
export interface HistoryOptions {
  timeZone: string | undefined
  dateFormat: string | undefined
}

// A zip's local file header (or the end record of an empty zip): PK\x03\x04, PK\x05\x06.
export const isZip = (head: Uint8Array): boolean =>
  head[0] === 0x50 &&
  head[1] === 0x4b &&
  ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6))

/** The service a file's first bytes show: a zip is Letterboxd's, a JSON array Trakt's, else the CSV header. */
export function historyFormatOf(head: Uint8Array): HistoryFormat | undefined {
  if (isZip(head)) return 'letterboxd'
  const text = textOf(head).replace(/^\uFEFF/, '')
  if (/^\s*\[/.test(text)) return 'trakt'
  const header = headerOf(text.slice(0, text.indexOf('\n') + 1 || undefined))
  if (isLetterboxdDiaryHeader(header)) return 'letterboxd'
  if (isTraktHeader(header) || isTraktRatingsHeader(header)) return 'trakt'
  if (isNetflixHeader(header)) return 'netflix'
  return undefined
}

// Not fatal: a first chunk may end inside a character; the rows are checked as they are read.
const textOf = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)

function headerOf(line: string): string[] {
  try {
    return ((parse(line, { relax_column_count: true })[0] ?? []) as string[]).map((c) => c.trim())
  } catch {
    return []
  }
}

/** CSV text as records with the line each ends on, its header first. */
function csvOf(text: string): { record: string[]; line: number }[] {
  const parsed = parse(text, {
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
  })
  return (parsed as unknown as { record: string[]; info: { lines: number } }[]).map(
    ({ record, info }) => ({
      record,
      line: info.lines,
    }),
  )
}

/**
 * The rows of a history file (`name` for messages). A file that is not of `format` is refused
 * whole, naming what it lacks.
 */
export function readHistory(
  bytes: Uint8Array,
  name: string,
  format: HistoryFormat,
  options: HistoryOptions,
): HistoryRow[] {
  if (format === 'letterboxd')
    return isZip(bytes)
      ? readLetterboxdZip(bytes, name)
      : readLetterboxd(utf8Of(bytes, name), new Map(), name)
  const text = utf8Of(bytes, name)
  if (format === 'trakt' && /^\uFEFF?\s*\[/.test(text))
    return traktJsonScreenings(jsonArray(text, name), options.timeZone)
  const [head, ...records] = csvOf(text)
  const header = (head?.record ?? []).map((cell) => cell.trim())
  if (format === 'trakt') {
    if (!isTraktHeader(header))
      throw new ImportFileError(
        `${name}: not a Trakt history (it needs the columns watched_at, type, title and imdb_id)`,
        { option: 'format' },
      )
    return records.map(({ record, line }) =>
      traktCsvScreening(header, record, line, options.timeZone),
    )
  }
  if (!isNetflixHeader(header))
    throw new ImportFileError(
      `${name}: not a Netflix viewing history (its columns are Title,Date)`,
      { option: 'format' },
    )
  const form = netflixForm(
    records.map(({ record }) => (record[1] ?? '').trim()),
    options.dateFormat,
  )
  return records.map(({ record, line }) =>
    netflixScreening(header, record, line, form.read, form.format),
  )
}

/**
 * The form of a Netflix history's days: the one given, else the one its days allow. None or
 * several: refused, for the person to name their account's (the caller says how: an option, a
 * parameter), with a form to try.
 */
/**
 * The rows of Trakt's ratings export, or `undefined` when the Trakt file `bytes` is its history.
 *
 * @example
 * ```ts
 * const ratings = readTraktRatings(bytes, 'ratings.json') // undefined for a history
 * ```
 */
export function readTraktRatings(bytes: Uint8Array, name: string): RatingRow[] | undefined {
  const head = textOf(bytes.subarray(0, 64 * 1024)).replace(/^\uFEFF/, '')
  if (/^\s*\[/.test(head)) {
    return isTraktRatingsJson(head)
      ? traktRatingsJson(jsonArray(utf8Of(bytes, name), name))
      : undefined
  }
  if (!isTraktRatingsHeader(headerOf(head.slice(0, head.indexOf('\n') + 1 || undefined)))) {
    return undefined
  }
  const [first, ...records] = csvOf(utf8Of(bytes, name))
  const header = (first?.record ?? []).map((cell) => cell.trim())
  return records.map(({ record, line }) => traktRatingsCsvRow(header, record, line))
}

function netflixForm(dates: string[], given: string | undefined) {
  if (given !== undefined) {
    const read = dayReader(given)
    if (!read)
      throw new ImportFileError(`'${given}' is not a day form like DD/MM/YYYY or MM/DD/YY`, {
        option: 'dateFormat',
      })
    return { read, format: given }
  }
  const [format, ...others] = netflixDateFormats(dates)
  if (!format) {
    throw new ImportFileError(
      `the days of this file (such as '${dates[0]}') are in no form movie-log knows: name it`,
      { option: 'dateFormat', suggestion: 'DD.MM.YYYY' },
    )
  }
  if (others.length > 0) {
    throw new ImportFileError(
      `the days of this file read as ${[format, ...others].join(' or ')}: name your account's form`,
      { option: 'dateFormat', suggestion: format },
    )
  }
  return { read: dayReader(format) as (text: string) => string | undefined, format }
}

function jsonArray(text: string, name: string): unknown[] {
  let items: unknown
  try {
    items = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new ImportFileError(`${name}: not JSON: ${(error as Error).message}`)
  }
  if (!Array.isArray(items)) {
    throw new ImportFileError(`${name}: not a Trakt history (a JSON array)`, { option: 'format' })
  }
  return items
}

function readLetterboxd(diary: string, reviews: Map<string, string>, name: string): HistoryRow[] {
  const [head, ...records] = csvOf(diary)
  const header = (head?.record ?? []).map((cell) => cell.trim())
  if (!isLetterboxdDiaryHeader(header)) {
    throw new ImportFileError(
      `${name}: not a Letterboxd diary (it needs the columns Name, Year, Letterboxd URI and Watched Date)`,
      { option: 'format' },
    )
  }
  return records.map(({ record, line }) => letterboxdScreening(header, record, line, reviews))
}

/**
 * Letterboxd's export as downloaded: its diary.csv, with reviews.csv's reviews. The rest (ratings,
 * watched, watchlist, lists, likes) is not a diary of screenings, and deleted/ and orphaned/ hold
 * entries the person removed: none of them is read.
 */
function readLetterboxdZip(bytes: Uint8Array, name: string): HistoryRow[] {
  const wanted = new Set(['diary.csv', 'reviews.csv'])
  let files: Record<string, Uint8Array>
  try {
    files = unzipSync(bytes, { filter: (file) => wanted.has(file.name) })
  } catch (error) {
    throw new ImportFileError(`${name}: a zip that cannot be read (${(error as Error).message})`)
  }
  const diary = files['diary.csv']
  if (!diary) {
    throw new ImportFileError(`${name}: a zip without diary.csv: not a Letterboxd export`, {
      option: 'format',
    })
  }
  const text = (file: Uint8Array) => utf8Of(file, `${name}: a file in it`)
  const reviews = files['reviews.csv']
    ? letterboxdReviews(csvOf(text(files['reviews.csv'])).map(({ record }) => record))
    : new Map<string, string>()
  return readLetterboxd(text(diary), reviews, `${name}: diary.csv`)
}

/** A history's text: refused whole when it is not UTF-8, as the rows of a CSV are one by one. */
function utf8Of(bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes)
  } catch {
    throw new ImportFileError(
      `${name}: not valid UTF-8 (saved as Latin-1 or Windows-1252? save it as UTF-8 and import it again)`,
    )
  }
}
