/**
 * Trakt's ratings, for movies: `GET /sync/ratings[/movies[/{ratings}]]`, `POST /sync/ratings`
 * and `POST /sync/ratings/remove`. A rating is a diary entry's `rating` (1-10, as Trakt's): a
 * movie is rated through its latest entry, as Plex's `media.rate` rates it, and read from its
 * latest rated entry. The diary keeps no time of rating: `rated_at` is that entry's watch.
 * Shows, seasons and episodes are answered as unknown: a diary of movies rates none.
 */
import { checkRating } from '../../core/rating-tags'
import { isObject } from '../../formats/scrobble'
import type { Reply } from '../reply'
import { imdbIdFor, type TraktContext } from './context'
import { historyOf } from './history'
import { listOf } from './history-write'
import { imdbIdOfMovie, namedMovie, traktMovieOf } from './movies'
import { traktError, traktJson } from './replies'

const others = (body: Record<string, unknown>) => ({
  shows: listOf(body.shows),
  seasons: listOf(body.seasons),
  episodes: listOf(body.episodes),
})
const none = { shows: 0, seasons: 0, episodes: 0 }

/** `GET /sync/ratings[/{type}[/{ratings}]]`: `ratings` a comma-separated filter (`8,9,10`). */
export async function readRatings(
  context: TraktContext,
  type: string | undefined,
  filter: string | undefined,
): Promise<Reply> {
  const wanted = filter?.split(',').map(Number)
  if (wanted?.some((rating) => checkRating(rating) !== true)) {
    return traktError(
      400,
      'bad_request',
      'The ratings filter is whole numbers 1-10, comma separated.',
    )
  }
  if (type !== undefined && type !== 'movies') return traktJson(200, [])
  const seen = new Set<string>()
  const rated = []
  // Newest first: each movie's latest rated entry is its rating.
  for (const entry of await historyOf(context)) {
    const { rating } = entry.movie
    const key = imdbIdOfMovie(entry.movie) ?? entry.movie.id
    if (rating === undefined || seen.has(key)) continue
    seen.add(key)
    if (wanted && !wanted.includes(rating)) continue
    rated.push({
      rated_at: entry.watchedAt,
      rating,
      type: 'movie',
      movie: traktMovieOf(entry.movie),
    })
  }
  return traktJson(200, rated)
}

/**
 * `POST /sync/ratings`: rates the latest entry of each movie of `body.movies`. A rating that is
 * not a whole number 1-10 is a 422 naming it, before anything is rated; a movie never logged is
 * in `not_found` (a rating adds no entry).
 */
export async function addRatings(context: TraktContext, body: unknown): Promise<Reply> {
  if (!isObject(body)) return traktError(400, 'bad_request', 'Send an object with movies.')
  const movies = listOf(body.movies)
  for (const [index, sent] of movies.entries()) {
    const rating = isObject(sent) ? sent.rating : undefined
    const problem = checkRating(rating)
    if (problem !== true) {
      return traktError(422, 'unprocessable_entity', `movies[${index}].rating ${problem}`)
    }
  }
  const entries = await historyOf(context)
  const notFound: unknown[] = []
  let added = 0
  for (const sent of movies) {
    const named = namedMovie(sent)
    const imdbId = named && (await imdbIdFor(context, named))
    const latest = imdbId && entries.find((entry) => imdbIdOfMovie(entry.movie) === imdbId)
    if (!latest) {
      notFound.push(sent)
      continue
    }
    await context.log.updateMovie(latest.movie.id, { rating: (sent as { rating: number }).rating })
    added++
  }
  return traktJson(201, {
    added: { movies: added, ...none },
    not_found: { movies: notFound, ...others(body) },
  })
}

/** `POST /sync/ratings/remove`: every entry of each movie of `body.movies` loses its rating. */
export async function removeRatings(context: TraktContext, body: unknown): Promise<Reply> {
  if (!isObject(body)) return traktError(400, 'bad_request', 'Send an object with movies.')
  const entries = await historyOf(context)
  const notFound: unknown[] = []
  let deleted = 0
  for (const sent of listOf(body.movies)) {
    const named = namedMovie(sent)
    const imdbId = named && (await imdbIdFor(context, named))
    const rated = entries.filter(
      (entry) =>
        imdbId && imdbIdOfMovie(entry.movie) === imdbId && entry.movie.rating !== undefined,
    )
    if (rated.length === 0) {
      notFound.push(sent)
      continue
    }
    for (const entry of rated) await context.log.updateMovie(entry.movie.id, { rating: null })
    deleted++
  }
  return traktJson(200, {
    deleted: { movies: deleted, ...none },
    not_found: { movies: notFound, ...others(body) },
  })
}
