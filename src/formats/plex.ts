/**
 * Plex's webhook (the JSON of its `payload` part) as a scrobble: `media.scrobble` of a movie, or
 * its `media.rate`.
 */
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
  const event = payload.event
  if ((event !== 'media.scrobble' && event !== 'media.rate') || payload.user === false) {
    return { kind: 'ignored' }
  }
  if (!isObject(metadata)) {
    return { kind: 'malformed', detail: `This Plex '${event}' has no 'Metadata' object.` }
  }
  if (metadata.type !== 'movie') return { kind: 'ignored' }
  if (event === 'media.rate') return readRating(payload, metadata)
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

/**
 * `media.rate`: the person's rating on Plex's scale, 0-10 in whole points (five stars with
 * halves, ours), in the event's `rating` (else `Metadata.userRating`); 0 or less, a rating taken
 * away. (`Metadata.rating` is the critics', never read.)
 */
function readRating(payload: Record<string, unknown>, metadata: Record<string, unknown>): Scrobble {
  const given = typeof payload.rating === 'number' ? payload.rating : metadata.userRating
  if (typeof given !== 'number' || !Number.isFinite(given) || given > 10) {
    const issues = [{ path: 'rating', message: 'must be a number from 0 to 10' }]
    return { kind: 'malformed', detail: "This Plex 'media.rate' has no rating.", issues }
  }
  const imdbId = imdbGuid(metadata)
  if (!imdbId) {
    const issues = [{ path: 'Metadata.Guid', message: 'has no imdb:// id for this movie' }]
    return { kind: 'incomplete', issues }
  }
  const rating = Math.round(given)
  return { kind: 'rated', imdbId, title: metadata.title, rating: rating >= 1 ? rating : null }
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
