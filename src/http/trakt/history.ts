/**
 * The diary read as Trakt's history: `GET /sync/history[/movies[/{id}]]` with `start_at`,
 * `end_at`, `page`, `limit` and Trakt's `X-Pagination-*` headers, newest first;
 * `GET /sync/watched/movies`; `GET /sync/last_activities`. A diary is read whole for each (a
 * person's diary is thousands of movies, not millions).
 */
import type { Movie } from '../../core/movie'
import type { Reply } from '../reply'
import type { TraktContext } from './context'
import { historyIdOf, imdbIdOfMovie, traktMovieOf, watchedAtOf } from './movies'
import { paginationHeaders, traktError, traktJson } from './replies'

// Trakt's own default and ceiling for a page of history.
const DEFAULT_LIMIT = 10
const MAX_LIMIT = 1000

/** A history entry and the movie it is. */
interface Entry {
  movie: Movie
  id: number
  watchedAt: string
}

/** Every entry of the diary, newest watch first. */
export async function historyOf(context: TraktContext): Promise<Entry[]> {
  const { movies } = await context.log.listMovies({ sort: '-screenedDate' })
  return movies.map((movie) => ({
    movie,
    id: historyIdOf(movie),
    watchedAt: watchedAtOf(movie.screenedDate, context.timeZone),
  }))
}

/** `GET /sync/history[/{type}[/{id}]]`: `type` `movies` (or none), `id` a Trakt or IMDb id. */
export async function readHistory(
  context: TraktContext,
  url: URL,
  type: string | undefined,
  id: string | undefined,
): Promise<Reply> {
  const query = url.searchParams
  const page = positive(query.get('page'), 1)
  const asked = positive(query.get('limit'), DEFAULT_LIMIT)
  const limit = asked === undefined ? undefined : Math.min(asked, MAX_LIMIT)
  const startAt = instant(query.get('start_at'))
  const endAt = instant(query.get('end_at'))
  if (page === undefined || limit === undefined || startAt === null || endAt === null) {
    return traktError(
      400,
      'bad_request',
      'page and limit must be positive integers, start_at and end_at ISO 8601 times.',
    )
  }
  // This diary has movies only: the history of shows, seasons and episodes is empty.
  const movies = type === undefined || type === 'movies'
  let entries = movies ? await historyOf(context) : []
  if (id !== undefined) entries = entries.filter((entry) => imdbIdOfMovie(entry.movie) === id)
  entries = entries.filter((entry) => {
    const at = Date.parse(entry.watchedAt)
    return (startAt === undefined || at >= startAt) && (endAt === undefined || at <= endAt)
  })
  const shown = entries.slice((page - 1) * limit, page * limit).map((entry) => ({
    id: entry.id,
    watched_at: entry.watchedAt,
    action: 'watch',
    type: 'movie',
    movie: traktMovieOf(entry.movie),
  }))
  return traktJson(200, shown, paginationHeaders(page, limit, entries.length))
}

/** `GET /sync/watched/movies`: each movie once, with its plays and last watch. */
export async function readWatched(context: TraktContext): Promise<Reply> {
  const byMovie = new Map<string, { plays: number; last: string; movie: Movie }>()
  for (const entry of await historyOf(context)) {
    const key = imdbIdOfMovie(entry.movie) ?? entry.movie.id
    const seen = byMovie.get(key)
    if (seen) seen.plays++
    else byMovie.set(key, { plays: 1, last: entry.watchedAt, movie: entry.movie })
  }
  const watched = [...byMovie.values()].map(({ plays, last, movie }) => ({
    plays,
    last_watched_at: last,
    last_updated_at: last,
    movie: traktMovieOf(movie),
  }))
  return traktJson(200, watched)
}

/**
 * `GET /sync/last_activities`. Edits made on the page or through the log's own API leave no
 * time here, so `movies.watched_at` and `movies.rated_at` are now: a client that compares them
 * always syncs, which costs a read and never misses a change.
 */
export function lastActivities(context: TraktContext): Reply {
  const now = new Date(context.now).toISOString()
  const never = '1970-01-01T00:00:00.000Z'
  const quiet = { watched_at: never, collected_at: never, rated_at: never, watchlisted_at: never }
  return traktJson(200, {
    all: now,
    movies: {
      ...quiet,
      watched_at: now,
      rated_at: now,
      commented_at: never,
      paused_at: never,
      hidden_at: never,
    },
    episodes: { ...quiet, commented_at: never, paused_at: never },
    shows: { rated_at: never, watchlisted_at: never, commented_at: never, hidden_at: never },
    seasons: { rated_at: never, watchlisted_at: never, commented_at: never, hidden_at: never },
    comments: { liked_at: never, blocked_at: never },
    lists: { liked_at: never, updated_at: never, commented_at: never },
    watchlist: { updated_at: never },
    favorites: { updated_at: never },
    account: {
      settings_at: never,
      followed_at: never,
      following_at: never,
      pending_at: never,
      requested_at: never,
    },
    saved_filters: { updated_at: never },
    notes: { updated_at: never },
  })
}

// `undefined` for a value that is not a positive integer; `fallback` when absent.
function positive(value: string | null, fallback: number): number | undefined {
  if (value === null) return fallback
  return /^[1-9]\d{0,8}$/.test(value) ? Number(value) : undefined
}

// `undefined` when absent, `null` when not a time.
function instant(value: string | null): number | undefined | null {
  if (value === null) return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? null : ms
}
