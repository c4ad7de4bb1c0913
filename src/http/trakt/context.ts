/** What every Trakt route is given: the caller's diary, its records and the store's, the time. */
import type { MovieLog } from '../../core/movie-log'
import type { LogRecords } from '../../core/records'
import type { NamedMovie } from './movies'

export interface TraktContext {
  /** The diary the request's token acts for. */
  log: MovieLog
  /** That diary's records (scrobble windows). */
  records: LogRecords
  /** The handler's `timeZone`: local times of scrobbles, `watched_at` of history. */
  timeZone: string | undefined
  now: number
  /**
   * The IMDb id of a movie a client named without one (a TMDB id, a title and year): the seam
   * where a loaded catalog answers. Without one, such a movie is Trakt's unknown item (404).
   */
  match?: (movie: NamedMovie) => Promise<string | undefined>
}

/** The IMDb id of a movie a client named: its own, else the catalog's match. */
export async function imdbIdFor(
  context: TraktContext,
  movie: NamedMovie,
): Promise<string | undefined> {
  return movie.imdbId ?? (await context.match?.(movie))
}
