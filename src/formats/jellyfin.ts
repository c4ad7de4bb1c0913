/** Jellyfin's webhook plugin ("Send All Properties": flat JSON) as a scrobble. */
import {
  finishedMovie,
  imdbIdOf,
  impossibleTime,
  instantOf,
  isObject,
  type Scrobble,
  watchedAt,
} from './scrobble'

/** Reads one delivery: `PlaybackStop` of a `Movie` with `PlayedToCompletion`, else ignored. */
export function readJellyfin(payload: unknown, receivedAt: number): Scrobble {
  if (!isObject(payload) || typeof payload.NotificationType !== 'string') {
    return {
      kind: 'malformed',
      detail: "This is not a Jellyfin webhook: it has no 'NotificationType'.",
    }
  }
  const finished =
    payload.NotificationType === 'PlaybackStop' &&
    payload.ItemType === 'Movie' &&
    payload.PlayedToCompletion === true
  if (!finished) return { kind: 'ignored' }
  const instant = instantOf(payload.UtcTimestamp)
  if (instant === 'impossible') return impossibleTime('UtcTimestamp', payload.UtcTimestamp)
  return finishedMovie(imdbIdOf(payload.Provider_imdb), 'Provider_imdb', {
    title: payload.Name,
    releaseYear: payload.Year,
    watchedAt: watchedAt(instant, receivedAt),
    notes: 'Scrobbled from Jellyfin',
  })
}
