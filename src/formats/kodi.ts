/**
 * Kodi's HTTP scrobbler add-ons: one JSON body per player event, `{ event, item, progress }`,
 * `event` one of Kodi's player callbacks (`start`, `pause`, `resume`, `stop`, `end`, `seek`,
 * `interval`), `item` the playing item as Kodi's JSON-RPC `Player.GetItem` writes it (`type`,
 * `title`, `year`, `uniqueid: { imdb, tmdb }`) and `progress` its `percentage` (0-100). A movie
 * played to its `end`, or stopped past 90%, is watched; everything else is left alone.
 */
import { finishedMovie, imdbIdOf, isObject, type Scrobble } from './scrobble'

const EVENTS = new Set(['start', 'pause', 'resume', 'stop', 'end', 'seek', 'interval'])
/** A stop past this percentage is a watch (credits skipped). */
export const KODI_WATCHED_PERCENT = 90

/**
 * Reads one Kodi event.
 *
 * @example
 * ```ts
 * readKodi({ event: 'pause', item: { type: 'movie' }, progress: 12 }, Date.now()) // { kind: 'ignored' }
 * ```
 */
export function readKodi(payload: unknown, receivedAt: number): Scrobble {
  if (!isObject(payload) || !EVENTS.has(payload.event as string) || !isObject(payload.item)) {
    return {
      kind: 'malformed',
      detail: `A Kodi event is { event, item, progress }, event one of ${[...EVENTS].join(', ')}.`,
    }
  }
  const { event, item } = payload
  const progress = payload.progress ?? payload.percentage
  const finished =
    event === 'end' ||
    (event === 'stop' && typeof progress === 'number' && progress > KODI_WATCHED_PERCENT)
  // An episode, a song, a movie stopped early: nothing for a diary of movies.
  if (!finished || item.type !== 'movie') return { kind: 'ignored' }
  const ids = isObject(item.uniqueid) ? item.uniqueid : {}
  return finishedMovie(imdbIdOf(ids.imdb), 'item.uniqueid.imdb', {
    title: item.title,
    releaseYear: item.year,
    watchedAt: { instant: receivedAt },
    notes: 'Scrobbled from Kodi',
    // Kodi's add-ons may say `end` and then `stop` for one play: one watch within the hour.
    sameWithinMs: 3600 * 1000,
  })
}
