/**
 * What a media server's webhook says, read into one shape: a finished movie to log, an event to
 * leave alone, a finished movie that cannot be logged, or a body that is not the source's format.
 * Each source's reader is its own file (`plex.ts`, `jellyfin.ts`, `emby.ts`, `generic-scrobble.ts`),
 * listed in `scrobble-sources.ts`.
 */
import type { ValidationIssue } from '../core/errors'

/**
 * When the watch ended: an instant (epoch ms), written in the server's time zone, or a local
 * time (`YYYY-MM-DDTHH:mm:ss.sss`) kept as it is.
 *
 * @example
 * ```ts
 * const at: WatchTime = { instant: Date.parse('2024-05-01T20:30:00Z') }
 * ```
 */
export type WatchTime = { instant: number } | { local: string }

/**
 * A finished movie to log: its IMDb id, and title and year as the payload says them.
 *
 * @example
 * ```ts
 * const watched: Watched = { kind: 'watched', imdbId: 'tt0113277', title: 'Heat', releaseYear: 1995, watchedAt: { instant: Date.now() }, notes: 'Scrobbled from Kodi' }
 * ```
 */
export interface Watched {
  kind: 'watched'
  imdbId: string
  /** As the payload says; the log's field rules check them. */
  title: unknown
  releaseYear: unknown
  watchedAt: WatchTime
  notes: string
  /**
   * For a source that may report one play twice (Kodi's `end`, then `stop`): the same movie
   * within this many ms of the first report is the same watch, logged once.
   */
  sameWithinMs?: number
}

/** A rating given to a movie (Plex's `media.rate`): that person's latest entry of it takes it. */
export interface Rated {
  kind: 'rated'
  imdbId: string
  /** As the payload says: how the movie is found among the person's entries. */
  title: unknown
  /** 1-10, or `null` when the rating was taken away. */
  rating: number | null
}

/**
 * What a scrobble source read of one delivery.
 *
 * @example
 * ```ts
 * const read: Scrobble = { kind: 'incomplete', issues: [{ path: 'item.imdb', message: 'is missing' }] }
 * ```
 */
export type Scrobble =
  | Watched
  | Rated
  /** Anything but a finished movie: a play, a pause, an episode, a movie stopped early. */
  | { kind: 'ignored' }
  /**
   * A finished movie the log cannot take: what is missing, by the payload's own names. Without
   * an IMDb id, the watch itself (`unmatched`): a catalog may still find its IMDb entry.
   */
  | { kind: 'incomplete'; issues: ValidationIssue[]; unmatched?: Omit<Watched, 'kind' | 'imdbId'> }
  /** Not the source's format at all, or a field of it that says nothing real (`issues`). */
  | { kind: 'malformed'; detail: string; issues?: ValidationIssue[] }

const IMDB_ID = /^tt\d{7,10}$/

/** `tt0111161` when `value` is an IMDb title id, else `undefined`. */
export function imdbIdOf(value: unknown): string | undefined {
  return typeof value === 'string' && IMDB_ID.test(value.trim()) ? value.trim() : undefined
}

/** The IMDb page of a title id, as the log stores it. */
export const imdbLinkOf = (imdbId: string): string => `https://www.imdb.com/title/${imdbId}/`

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

// ISO 8601 with an offset; .NET writes seven digits of fraction, JavaScript's parser wants three.
const INSTANT = /^((\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2}))(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/

// The instants whose local time is in the years 0001 to 9999 in every zone (offsets are at most
// 14 hours): what the log's `screenedDate` can say. Plex's seconds past it would make no date.
const FIRST_INSTANT = Date.parse('0001-01-02T00:00:00Z')
const LAST_INSTANT = Date.parse('9999-12-30T23:59:59.999Z')

/** Whether an epoch ms is a time the log can write as a local date (years 0001 to 9999). */
export const isLoggableInstant = (ms: number): boolean => ms >= FIRST_INSTANT && ms <= LAST_INSTANT

/**
 * Epoch ms of an ISO 8601 instant with its offset (`Z`, `+02:00`); `undefined` when `value` is
 * not one, `'impossible'` when it has the form but names no real time (`2024-02-30`, year 0000,
 * hour 24): JavaScript's parser would roll 30 February over into 1 March.
 */
export function instantOf(value: unknown): number | 'impossible' | undefined {
  const match = typeof value === 'string' ? INSTANT.exec(value.trim()) : null
  if (!match) return undefined
  const [, time, year, month, day, hour, minute, second, fraction = '', offset] = match
  const date = new Date(0)
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day))
  const real =
    date.getUTCFullYear() === Number(year) &&
    date.getUTCMonth() === Number(month) - 1 &&
    date.getUTCDate() === Number(day) &&
    Number(hour) < 24 &&
    Number(minute) < 60 &&
    Number(second) < 60
  const ms = Date.parse(`${time}.${fraction.padEnd(3, '0').slice(0, 3)}${offset}`)
  return real && !Number.isNaN(ms) && isLoggableInstant(ms) ? ms : 'impossible'
}

/** A watch time the payload gives but that is no real time: 400, naming the field. */
export function impossibleTime(field: string, value: unknown): Scrobble {
  const message = `is not a real time between the years 0001 and 9999: ${JSON.stringify(value)}`
  return { kind: 'malformed', detail: `'${field}' ${message}.`, issues: [{ path: field, message }] }
}

/** The watch time: the payload's instant when it has a readable one, else when it arrived. */
export const watchedAt = (instant: number | undefined, receivedAt: number): WatchTime => ({
  instant: instant ?? receivedAt,
})

/**
 * A finished movie: logged when the payload gave its IMDb id, else `incomplete`, naming where
 * the id should have been (`path`, the payload's own names).
 */
export function finishedMovie(
  imdbId: string | undefined,
  path: string,
  watch: Omit<Watched, 'kind' | 'imdbId'>,
  missing = 'is missing: this movie has no IMDb id',
): Scrobble {
  if (!imdbId) return { kind: 'incomplete', issues: [{ path, message: missing }], unmatched: watch }
  return { kind: 'watched', imdbId, ...watch }
}
