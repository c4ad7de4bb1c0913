/**
 * The diary read as Trakt's history: `GET /sync/history[/movies[/{id}]]` with `start_at`,
 * `end_at`, `page`, `limit` and Trakt's `X-Pagination-*` headers, newest first;
 * `GET /sync/watched/movies`; `GET /sync/last_activities`. A diary is read whole for each (a
 * person's diary is thousands of movies, not millions).
 */
import type { Movie } from '../../core/movie'
import { sha256Hex } from '../../core/sha256'
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

// The record of the diary's last states answered, and how long it is kept (a year unasked:
// the next poll then answers its time, and the client syncs once).
const ACTIVITIES = 'trakt:activities'
const ACTIVITIES_MS = 365 * 24 * 3600 * 1000

/** A state of the diary's history or ratings, and the time it was first answered. */
interface Seen {
  state: string
  at: number
}

/**
 * `GET /sync/last_activities`: `movies.watched_at` changes when the history does (an entry
 * added, removed, moved to another time or movie), `movies.rated_at` when a rating does, each
 * the time this server first answered that state, from wherever the change came (the page, the
 * log's API, a scrobble, Trakt's routes); `all` is the later of the two. A client that keeps
 * them syncs only after a change. A history that comes back to an earlier state is a change
 * too: its time is that of the poll that saw it, never the earlier one.
 */
export async function lastActivities(context: TraktContext): Promise<Reply> {
  const entries = await historyOf(context)
  const watched = sha256Hex(
    entries.map(({ movie }) => `${movie.id} ${movie.screenedDate} ${movie.imdbLink}`).join('\n'),
  )
  const rated = sha256Hex(
    entries
      .filter(({ movie }) => movie.rating !== undefined)
      .map(({ movie }) => `${movie.id} ${movie.rating}`)
      .join('\n'),
  )
  const text = await context.records.read(ACTIVITIES)
  const last = text ? (JSON.parse(text) as { watched: Seen; rated: Seen }) : undefined
  // A new state is always later than the one before, even within one millisecond.
  const since = (seen: Seen | undefined, state: string): Seen =>
    seen?.state === state ? seen : { state, at: Math.max(context.now, (seen?.at ?? 0) + 1) }
  const now = { watched: since(last?.watched, watched), rated: since(last?.rated, rated) }
  if (now.watched !== last?.watched || now.rated !== last?.rated) {
    await context.records.write(ACTIVITIES, JSON.stringify(now), ACTIVITIES_MS)
  }
  const [watchedAt, ratedAt] = [now.watched.at, now.rated.at].map((at) =>
    new Date(at).toISOString(),
  )
  const all = new Date(Math.max(now.watched.at, now.rated.at)).toISOString()
  const never = '1970-01-01T00:00:00.000Z'
  const quiet = { watched_at: never, collected_at: never, rated_at: never, watchlisted_at: never }
  return traktJson(200, {
    all,
    movies: {
      ...quiet,
      watched_at: watchedAt,
      rated_at: ratedAt,
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
