/**
 * A rating from a media server (Plex's `media.rate`): it rates that person's latest entry of the
 * movie, 200 with the entry; 204 when they never logged it (nothing is added for a rating).
 */
import type { Movie } from '../core/movie'
import type { MovieLog } from '../core/movie-log'
import { imdbLinkOf, type Rated } from '../formats/scrobble'
import { etagOf } from './conditions'
import { jsonReply, type Reply } from './reply'

const PAGE = 200

/**
 * Rates the latest screening (by `screenedDate`) of the rated movie's IMDb link. It is found by
 * a search for its title, as the server names it (the title a scrobble logged), latest first:
 * a few entries read, whatever the size of the diary.
 */
export async function rateLatest(
  log: MovieLog,
  rated: Rated,
  headers: Record<string, string>,
): Promise<Reply> {
  const latest = await latestOf(log, imdbLinkOf(rated.imdbId), rated.title)
  if (!latest) return { status: 204, headers, body: null }
  const movie = await log.updateMovie(latest.id, { rating: rated.rating })
  return jsonReply(200, JSON.stringify(movie), { ...headers, etag: etagOf(movie) })
}

async function latestOf(log: MovieLog, link: string, title: unknown): Promise<Movie | undefined> {
  if (typeof title !== 'string' || title.trim() === '') return undefined
  let cursor: string | null = null
  do {
    const page = await log.listMovies({ q: title, sort: '-screenedDate', limit: PAGE, cursor })
    const found = page.movies.find((movie) => movie.imdbLink === link)
    if (found) return found
    cursor = page.nextCursor
  } while (cursor !== null)
  return undefined
}
