/** Plex's webhook (the JSON of its `payload` part) as a scrobble: `media.scrobble` of a movie. */
import {
  finishedMovie,
  imdbIdOf,
  impossibleTime,
  isLoggableInstant,
  isObject,
  type Scrobble,
  watchedAt,
} from './scrobble'

// New agents list ids in `Guid` (`imdb://tt…`); the legacy IMDb agent names it in `guid`.
const LEGACY_IMDB_GUID = /^com\.plexapp\.agents\.imdb:\/\/(tt\d+)/

/**
 * Reads one Plex delivery: `media.scrobble` of a movie watched by the webhook's own person
 * (`user` true). Plex sends `media.scrobble` once a movie is 90% watched; its
 * `lastViewedAt` (Unix seconds) is when, else the delivery's `receivedAt` (epoch ms) stands in.
 */
export function readPlex(payload: unknown, receivedAt: number): Scrobble {
  if (!isObject(payload) || typeof payload.event !== 'string') {
    return { kind: 'malformed', detail: "This is not a Plex webhook: it has no 'event'." }
  }
  const metadata = payload.Metadata
  // `user: false`: another person's watch, sent to this webhook because its owner owns the
  // server (Plex sends the server owner's webhooks its shared users' events too).
  if (payload.event !== 'media.scrobble' || payload.user === false) return { kind: 'ignored' }
  if (!isObject(metadata)) {
    return { kind: 'malformed', detail: "This Plex 'media.scrobble' has no 'Metadata' object." }
  }
  if (metadata.type !== 'movie') return { kind: 'ignored' }
  const lastViewedAt = metadata.lastViewedAt
  const viewedAt = typeof lastViewedAt === 'number' ? lastViewedAt * 1000 : undefined
  // Seconds past the year 9999 would make no date at all (a 500 once): refused, naming them.
  if (viewedAt !== undefined && !isLoggableInstant(viewedAt)) {
    return impossibleTime('Metadata.lastViewedAt', lastViewedAt)
  }
  return finishedMovie(
    imdbGuid(metadata),
    'Metadata.Guid',
    {
      title: metadata.title,
      releaseYear: metadata.year,
      watchedAt: watchedAt(viewedAt, receivedAt),
      notes: 'Scrobbled from Plex',
    },
    'has no imdb:// id for this movie',
  )
}

function imdbGuid(metadata: Record<string, unknown>): string | undefined {
  const guids = Array.isArray(metadata.Guid) ? metadata.Guid : []
  for (const guid of guids) {
    const id = isObject(guid) && typeof guid.id === 'string' ? guid.id : ''
    if (id.startsWith('imdb://')) return imdbIdOf(id.slice('imdb://'.length))
  }
  const legacy = typeof metadata.guid === 'string' ? LEGACY_IMDB_GUID.exec(metadata.guid) : null
  return imdbIdOf(legacy?.[1])
}
