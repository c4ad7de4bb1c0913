/**
 * `POST /sync/history` and `POST /sync/history/remove`, for movies. An item already in the
 * diary at the same time is not added again; shows, seasons and episodes are answered in
 * `not_found` (a diary of movies stores none).
 */
import type { NewMovie } from '../../core/movie'
import { localTimeOf } from '../../formats/local-time'
import { imdbLinkOf, isObject } from '../../formats/scrobble'
import type { Reply } from '../reply'
import { SCROBBLE_KEY_PREFIX } from '../request'
import { imdbIdFor, type TraktContext } from './context'
import { historyOf } from './history'
import { imdbIdOfMovie, namedMovie } from './movies'
import { traktError, traktJson } from './replies'

/** A list a client sent, or none. */
export const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

/** Adds each movie of `body.movies` at its `watched_at` (now when absent). */
export async function addHistory(context: TraktContext, body: unknown): Promise<Reply> {
  if (!isObject(body)) return traktError(400, 'bad_request', 'Send an object with movies.')
  const notFound = {
    movies: [] as unknown[],
    shows: listOf(body.shows),
    seasons: listOf(body.seasons),
    episodes: listOf(body.episodes),
    people: [],
  }
  // What the diary holds already: the same movie at the same time is there once.
  const held = new Set(
    (await historyOf(context)).map(
      (entry) => `${imdbIdOfMovie(entry.movie)} ${entry.movie.screenedDate}`,
    ),
  )
  let added = 0
  for (const sent of listOf(body.movies)) {
    const named = namedMovie(sent)
    const imdbId = named && (await imdbIdFor(context, named))
    const at =
      isObject(sent) && typeof sent.watched_at === 'string'
        ? Date.parse(sent.watched_at)
        : context.now
    if (!named || !imdbId || typeof named.title !== 'string' || Number.isNaN(at)) {
      notFound.movies.push(sent)
      continue
    }
    const screenedDate = localTimeOf(at, context.timeZone)
    const key = `${imdbId} ${screenedDate}`
    if (held.has(key)) continue
    held.add(key)
    await context.log.addMovie(
      {
        title: named.title,
        screenedDate,
        releaseYear: named.year,
        imdbLink: imdbLinkOf(imdbId),
        notes: '',
      } as NewMovie,
      // Two processes sent the same item at once add it once too.
      { idempotencyKey: `${SCROBBLE_KEY_PREFIX}trakt-history:${imdbId}:${screenedDate}` },
    )
    added++
  }
  return traktJson(201, { added: { movies: added, episodes: 0 }, not_found: notFound })
}

/** Removes entries by history id (`ids`) and every entry of each movie of `movies`. */
export async function removeHistory(context: TraktContext, body: unknown): Promise<Reply> {
  if (!isObject(body)) return traktError(400, 'bad_request', 'Send an object with movies or ids.')
  const entries = await historyOf(context)
  const doomed = new Set<string>()
  const notFound = {
    movies: [] as unknown[],
    shows: listOf(body.shows),
    seasons: [],
    episodes: listOf(body.episodes),
    ids: [] as unknown[],
    people: [],
  }
  for (const id of listOf(body.ids)) {
    const entry = entries.find((candidate) => candidate.id === id)
    if (entry) doomed.add(entry.movie.id)
    else notFound.ids.push(id)
  }
  for (const sent of listOf(body.movies)) {
    const named = namedMovie(sent)
    const imdbId = named && (await imdbIdFor(context, named))
    const matches = imdbId ? entries.filter((entry) => imdbIdOfMovie(entry.movie) === imdbId) : []
    if (matches.length === 0) notFound.movies.push(sent)
    for (const entry of matches) doomed.add(entry.movie.id)
  }
  let deleted = 0
  // A movie another request deleted first is not counted twice.
  for (const id of doomed) if (await context.log.deleteMovie(id)) deleted++
  return traktJson(200, { deleted: { movies: deleted, episodes: 0 }, not_found: notFound })
}
