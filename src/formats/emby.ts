/** Emby's webhook as a scrobble: `playback.stop` of a movie played to completion. */
import {
  finishedMovie,
  imdbIdOf,
  impossibleTime,
  instantOf,
  isObject,
  type Scrobble,
  watchedAt,
} from './scrobble'

/** Reads one delivery (the JSON body, or the JSON of its `data` part). */
export function readEmby(payload: unknown, receivedAt: number): Scrobble {
  if (!isObject(payload) || typeof payload.Event !== 'string') {
    return { kind: 'malformed', detail: "This is not an Emby webhook: it has no 'Event'." }
  }
  const item = isObject(payload.Item) ? payload.Item : {}
  const playback = isObject(payload.PlaybackInfo) ? payload.PlaybackInfo : {}
  const finished =
    payload.Event === 'playback.stop' &&
    item.Type === 'Movie' &&
    playback.PlayedToCompletion === true
  if (!finished) return { kind: 'ignored' }
  const instant = instantOf(payload.Date)
  if (instant === 'impossible') return impossibleTime('Date', payload.Date)
  const providerIds = isObject(item.ProviderIds) ? item.ProviderIds : {}
  // Emby spells the provider `Imdb`; metadata edited by hand or by plugins may say `IMDB`.
  return finishedMovie(imdbIdOf(providerIds.Imdb ?? providerIds.IMDB), 'Item.ProviderIds.Imdb', {
    title: item.Name,
    releaseYear: item.ProductionYear,
    watchedAt: watchedAt(instant, receivedAt),
    notes: 'Scrobbled from Emby',
  })
}
