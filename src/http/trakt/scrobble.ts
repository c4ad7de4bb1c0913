/**
 * `POST /scrobble/start|pause|stop`, as Trakt answers them: start and pause are told back and
 * nothing is stored; a stop at 80% or more logs the movie at the local time of the stop, once:
 * the same movie stopped again within the window is 409 with `watched_at` and `expires_at`.
 * Episodes are answered as Trakt answers them and nothing is stored (a diary of movies).
 */
import { parseNewMovie } from '../../core/movie'
import { localTimeOf } from '../../formats/local-time'
import { imdbLinkOf, isObject } from '../../formats/scrobble'
import type { Reply } from '../reply'
import { SCROBBLE_KEY_PREFIX } from '../request'
import { imdbIdFor, type TraktContext } from './context'
import { historyIdOf, namedMovie } from './movies'
import { traktError, traktJson } from './replies'

/** A stop at this progress or more is a watch (Trakt's 80%). */
export const SCROBBLE_PROGRESS = 80
// How long the same stop again is a duplicate: Trakt answers 409 within about an hour.
const DUPLICATE_WINDOW_MS = 3600 * 1000
const SHARING = { twitter: false, mastodon: false, tumblr: false }

export type ScrobbleAction = 'start' | 'pause' | 'stop'

/**
 * Answers one scrobble `body` of `action`.
 *
 * @example
 * ```ts
 * await traktScrobble(context, 'stop', { movie: { title: 'Heat', year: 1995, ids: { imdb: 'tt0113277' } }, progress: 95 })
 * ```
 */
export async function traktScrobble(
  context: TraktContext,
  action: ScrobbleAction,
  body: unknown,
): Promise<Reply> {
  const progress = isObject(body) ? body.progress : undefined
  if (typeof progress !== 'number' || !(progress >= 1 && progress <= 100)) {
    return traktError(422, 'unprocessable_entity', 'progress must be a number from 1 to 100.')
  }
  if (isObject(body) && isObject(body.episode)) {
    const told = action === 'stop' ? (progress >= SCROBBLE_PROGRESS ? 'scrobble' : 'pause') : action
    const { episode, show } = body
    return traktJson(201, { id: 0, action: told, progress, sharing: SHARING, episode, show })
  }
  const named = isObject(body) ? namedMovie(body.movie) : undefined
  if (!named) return traktError(400, 'bad_request', 'Send a movie or an episode.')
  const imdbId = await imdbIdFor(context, named)
  if (!imdbId || typeof named.title !== 'string') {
    return traktError(404, 'not_found', 'This movie is not known here: send its IMDb id and title.')
  }
  const movie = { title: named.title, year: named.year, ids: { imdb: imdbId } }
  if (action !== 'stop' || progress < SCROBBLE_PROGRESS) {
    const told = action === 'stop' ? 'pause' : action
    return traktJson(201, { id: 0, action: told, progress, sharing: SHARING, movie })
  }
  const watchedAt = new Date(context.now).toISOString()
  const expiresAt = new Date(context.now + DUPLICATE_WINDOW_MS).toISOString()
  // Checked before the window is claimed: a movie the log refuses (422) claims nothing.
  const input = parseNewMovie({
    title: named.title,
    screenedDate: localTimeOf(context.now, context.timeZone),
    releaseYear: named.year,
    imdbLink: imdbLinkOf(imdbId),
    notes: '',
  })
  const window = `trakt:stop:${imdbId}`
  const claim = JSON.stringify({ watched_at: watchedAt, expires_at: expiresAt })
  // Across processes, the first stop in the window logs; the others are told when it was.
  if (!(await context.records.create(window, claim, DUPLICATE_WINDOW_MS))) {
    const first = await context.records.read(window)
    return traktJson(
      409,
      first ? JSON.parse(first) : { watched_at: watchedAt, expires_at: expiresAt },
    )
  }
  try {
    const added = await context.log.addMovie(input, {
      idempotencyKey: `${SCROBBLE_KEY_PREFIX}trakt:${imdbId}:${watchedAt}`,
    })
    const logged = { title: added.title, year: added.releaseYear, ids: movie.ids }
    return traktJson(201, {
      id: historyIdOf(added),
      action: 'scrobble',
      progress,
      sharing: SHARING,
      movie: logged,
    })
  } catch (error) {
    // Not logged (the store failed): the next stop may log it.
    await context.records.write(window, claim, 1)
    throw error
  }
}
