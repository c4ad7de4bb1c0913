/**
 * Trakt's watch history as screenings: its CSV (`watched_at,action,type,title,year,trakt_rating,
 * trakt_id,imdb_id,tmdb_id,...`) and its JSON (`[{ id, watched_at, action, type, movie: { title,
 * year, ids: { trakt, slug, imdb, tmdb } } }]`). Movies only; `watched_at` (UTC) becomes the
 * wall-clock time in the log's zone.
 */
import { cellOf, type HistoryRow, imdbLinkOf, yearOf } from './history'
import { localTimeOf } from './local-time'

/**
 * Whether a CSV header is Trakt's history.
 *
 * @example
 * ```ts
 * isTraktHeader(['watched_at', 'action', 'type', 'title', 'year', 'trakt_id', 'imdb_id']) // true
 * ```
 */
export const isTraktHeader = (header: readonly string[]): boolean =>
  ['watched_at', 'type', 'title', 'imdb_id'].every((column) => header.includes(column))

/** One watch as both of Trakt's files give it. */
interface TraktWatch {
  watchedAt: string
  type: string
  title: string
  year: number | undefined
  imdb: string
  trakt: string
}

// Trakt writes an instant in UTC with its zone: `2024-05-01T18:30:00.000Z`.
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

function screening(watch: TraktWatch, line: number, timeZone: string | undefined): HistoryRow {
  if (watch.type !== 'movie') return { line, passedOver: 'episode' }
  const instant = INSTANT.test(watch.watchedAt) ? Date.parse(watch.watchedAt) : Number.NaN
  if (Number.isNaN(instant)) {
    return {
      line,
      issues: [{ path: 'watched_at', message: 'must be a time like 2024-05-01T18:30:00.000Z' }],
    }
  }
  if (watch.title === '') return { line, issues: [{ path: 'title', message: 'is empty' }] }
  return {
    line,
    screening: {
      // The movie and the instant: the CSV and the JSON of one history name a watch alike.
      source: `trakt:${watch.trakt || watch.imdb || watch.title}:${new Date(instant).toISOString()}`,
      title: watch.title,
      releaseYear: watch.year,
      imdbLink: imdbLinkOf(watch.imdb),
      screenedDate: localTimeOf(instant, timeZone),
      notes: '',
    },
  }
}

/**
 * A record of Trakt's history CSV as a screening; an episode is passed over.
 *
 * @example
 * ```ts
 * traktCsvScreening(header, record, 2, 'Europe/Paris')
 * ```
 */
export function traktCsvScreening(
  header: readonly string[],
  record: readonly string[],
  line: number,
  timeZone: string | undefined,
): HistoryRow {
  const cell = cellOf(header, record)
  const watch = {
    watchedAt: cell('watched_at'),
    type: cell('type'),
    title: cell('title'),
    year: yearOf(cell('year')),
    imdb: cell('imdb_id'),
    trakt: cell('trakt_id'),
  }
  return screening(watch, line, timeZone)
}

/**
 * Trakt's history JSON (an array) as screenings, `line` each item's place from 1; an item that is
 * not an object of Trakt's shape is refused by its place.
 *
 * @example
 * ```ts
 * traktJsonScreenings(JSON.parse(text), 'Europe/Paris')
 * ```
 */
export function traktJsonScreenings(items: readonly unknown[], timeZone: string | undefined) {
  return items.map((item, index): HistoryRow => {
    const line = index + 1
    const entry = (item ?? {}) as Record<string, unknown>
    if (typeof entry.watched_at !== 'string') {
      return {
        line,
        issues: [{ path: 'watched_at', message: 'is missing: not a Trakt history item' }],
      }
    }
    const movie = (entry.movie ?? {}) as Record<string, unknown>
    const ids = (movie.ids ?? {}) as Record<string, unknown>
    const text = (value: unknown) =>
      typeof value === 'string' || typeof value === 'number' ? String(value) : ''
    const watch = {
      watchedAt: entry.watched_at,
      type: text(entry.type),
      title: text(movie.title).trim(),
      year: yearOf(text(movie.year)),
      imdb: text(ids.imdb),
      trakt: text(ids.trakt),
    }
    return screening(watch, line, timeZone)
  })
}
