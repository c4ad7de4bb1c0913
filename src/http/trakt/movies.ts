/**
 * Movies as Trakt writes them, and the diary's movies read as Trakt's history: the `movie`
 * object, the integer history id of an entry, `watched_at` from a local `screenedDate`, and the
 * IMDb id of a movie a client names.
 */
import type { Movie } from '../../core/movie'
import { sha256Of } from '../../core/sha256'
import { localTimeOf } from '../../formats/local-time'
import { imdbIdOf, isObject } from '../../formats/scrobble'

/** A movie as Trakt's API writes it. */
export interface TraktMovie {
  title: string
  year: number
  ids: { trakt: number | null; slug: string | null; imdb: string | null; tmdb: number | null }
}

/** The IMDb id of a stored movie, read from its link (`https://www.imdb.com/title/tt…/`). */
export const imdbIdOfMovie = (movie: Movie): string | undefined =>
  /\/title\/(tt\d{7,10})/.exec(movie.imdbLink)?.[1]

/** A diary movie as Trakt writes one: the diary knows its IMDb id only. */
export function traktMovieOf(movie: Movie): TraktMovie {
  return {
    title: movie.title,
    year: movie.releaseYear,
    ids: { trakt: null, slug: null, imdb: imdbIdOfMovie(movie) ?? null, tmdb: null },
  }
}

/** What a client sent as a movie: its IMDb id when it named one, title and year as given. */
export interface NamedMovie {
  imdbId: string | undefined
  title: unknown
  year: unknown
  /** The object as sent, echoed back in `not_found`. */
  sent: unknown
}

/** Reads a client's `movie` object; `undefined` when it is not an object. */
export function namedMovie(value: unknown): NamedMovie | undefined {
  if (!isObject(value)) return undefined
  const ids = isObject(value.ids) ? value.ids : {}
  return { imdbId: imdbIdOf(ids.imdb), title: value.title, year: value.year, sent: value }
}

// The UUIDv7 ids the log makes: 48 bits of milliseconds, then its 12-bit counter (rand_a).
const UUID_V7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7([0-9a-f]{3})-/
// Counted from 2020 so that milliseconds and counter fit a JavaScript integer (53 bits) until 2089.
const EPOCH_2020 = Date.UTC(2020, 0, 1)

/**
 * The integer id of a history entry, stable for as long as the movie is in the diary and made
 * from its id alone: for the log's UUIDv7 ids, its milliseconds since 2020 and counter (later
 * adds, larger ids); for any other id, 50 bits of its SHA-256.
 *
 * @example
 * ```ts
 * historyIdOf({ id: '0190a1b2-c3d4-7abc-8def-0123456789ab' }) // the same number every time
 * ```
 */
export function historyIdOf(movie: Pick<Movie, 'id'>): number {
  const uuid = UUID_V7.exec(movie.id)
  if (uuid) {
    const ms = Number.parseInt(`${uuid[1]}${uuid[2]}`, 16)
    if (ms >= EPOCH_2020) return (ms - EPOCH_2020) * 4096 + Number.parseInt(uuid[3] as string, 16)
  }
  const bytes = sha256Of(movie.id)
  let id = 0
  for (let index = 0; index < 7; index++) id = id * 256 + (bytes[index] as number)
  return Math.floor(id / 64)
}

/**
 * The instant a local `screenedDate` names in `timeZone`, as ISO 8601 UTC. The offset is the
 * zone's at that time; a local time that a daylight-saving change skips or repeats is read
 * with one of the two offsets around the change.
 *
 * @example
 * ```ts
 * watchedAtOf('2024-06-01T20:30:00.000', 'Europe/Paris') // '2024-06-01T18:30:00.000Z'
 * ```
 */
export function watchedAtOf(screenedDate: string, timeZone: string | undefined): string {
  const asUtc = Date.parse(`${screenedDate}Z`)
  const offset = Date.parse(`${localTimeOf(asUtc, timeZone)}Z`) - asUtc
  const instant = asUtc - offset
  const again = Date.parse(`${localTimeOf(instant, timeZone)}Z`) - instant
  return new Date(asUtc - again).toISOString()
}
