/**
 * Netflix's `NetflixViewingHistory.csv` (`Title,Date`, the day in the account's locale) as
 * screenings: episodes and trailers passed over, movies kept with no year and no IMDb id (the
 * catalog finds them).
 */
import { cellOf, type HistoryRow } from './history'

/**
 * Whether a CSV header is Netflix's viewing history.
 *
 * @example
 * ```ts
 * isNetflixHeader(['Title', 'Date']) // true
 * ```
 */
export const isNetflixHeader = (header: readonly string[]): boolean =>
  header.length === 2 && header[0] === 'Title' && header[1] === 'Date'

/** The day forms Netflix writes in the locales it serves, tried when none is named. */
export const NETFLIX_DATE_FORMATS = [
  'YYYY-MM-DD',
  'MM/DD/YY',
  'DD/MM/YY',
  'MM/DD/YYYY',
  'DD/MM/YYYY',
  'DD.MM.YY',
  'DD.MM.YYYY',
  'YYYY/MM/DD',
] as const

const FORM = /^(?:YYYY|YY|MM|DD|M|D|[./ -])+$/

/**
 * A reader of days in `format` (`DD/MM/YYYY`, `MM/DD/YY`...: D, M and YY or YYYY, between `/`,
 * `.`, `-` or spaces): `YYYY-MM-DD`, or `undefined` for text that is not such a day. A two-digit
 * year is of this century (Netflix streams since 2007). A `format` of another shape: `undefined`.
 *
 * @example
 * ```ts
 * dayReader('DD/MM/YYYY')?.('31/12/2024') // '2024-12-31'
 * ```
 */
export function dayReader(format: string): ((text: string) => string | undefined) | undefined {
  if (!FORM.test(format)) return undefined
  const order: string[] = []
  const source = format.replace(/YYYY|YY|MM|DD|M|D|[./ -]/g, (token) => {
    if (/^[./ -]$/.test(token)) return `\\${token}`
    order.push(token[0] as string)
    return token.startsWith('Y') ? `(\\d{${token.length}})` : '(\\d{1,2})'
  })
  if ([...order].sort().join('') !== 'DMY') return undefined
  const pattern = new RegExp(`^${source}$`)
  return (text) => {
    const match = pattern.exec(text.trim())
    if (!match) return undefined
    const part = (letter: string) => match[order.indexOf(letter) + 1] as string
    const year = Number(part('Y')) + (part('Y').length === 2 ? 2000 : 0)
    const [month, day] = [Number(part('M')), Number(part('D'))]
    if (month < 1 || month > 12 || day < 1) return undefined
    if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined
    return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
  }
}

/**
 * The forms of `NETFLIX_DATE_FORMATS` that read every one of `dates` and agree on each: none, one,
 * or several when the file cannot tell days from months (`--date-format` then decides).
 *
 * @example
 * ```ts
 * netflixDateFormats(['31/12/24', '1/2/24']) // ['DD/MM/YY']
 * ```
 */
export function netflixDateFormats(dates: readonly string[]): string[] {
  const fits = NETFLIX_DATE_FORMATS.map((format) => {
    const read = dayReader(format) as (text: string) => string | undefined
    const days = dates.map(read)
    return { format, days: days.every(Boolean) ? days.join() : undefined }
  }).filter(({ days }) => days !== undefined)
  // Forms that read every day alike (all days <= 12 and equal to their month) are one answer.
  return new Set(fits.map(({ days }) => days)).size <= 1
    ? fits.slice(0, 1).map(({ format }) => format)
    : fits.map(({ format }) => format)
}

// `Show: Season 1: Episode`, `Show: Limited Series: Chapter 1`, `Show: Staffel 2: Folge`...
const EPISODE =
  /^[^:]+:\s*(season|series|limited series|part|volume|chapter|book|collection|staffel|saison|temporada|stagione|seizoen|säsong|sezon)\b[^:]*:/i
const TRAILER = /(^|[\s:(])(trailer|teaser)\)?\s*$/i

/**
 * A record of Netflix's CSV as a screening at midnight of its day (`readDay` the account's day
 * form); an episode or a trailer is passed over, and a day that does not read is refused.
 *
 * @example
 * ```ts
 * netflixScreening(['Title', 'Date'], ['Heat', '12/31/24'], 2, dayReader('MM/DD/YY')!)
 * ```
 */
export function netflixScreening(
  header: readonly string[],
  record: readonly string[],
  line: number,
  readDay: (text: string) => string | undefined,
  format: string,
): HistoryRow {
  const cell = cellOf(header, record)
  const title = cell('Title')
  if (EPISODE.test(title)) return { line, passedOver: 'episode' }
  if (TRAILER.test(title)) return { line, passedOver: 'trailer' }
  const day = readDay(cell('Date'))
  if (!day)
    return {
      line,
      issues: [{ path: 'Date', message: `must be a day in ${format} (--date-format)` }],
    }
  if (title === '') return { line, issues: [{ path: 'Title', message: 'is empty' }] }
  return {
    line,
    screening: {
      // Netflix names a row by nothing else: one title twice on a day is one screening.
      source: `netflix:${title}:${day}`,
      title,
      releaseYear: undefined,
      imdbLink: undefined,
      screenedDate: `${day}T00:00:00.000`,
      notes: '',
    },
  }
}
