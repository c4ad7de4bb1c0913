import type { Movie } from './movie'
import { bytesToHex, sha256Of } from './sha256'

/** The form of the ids the log makes by default: a lowercase UUIDv7 (RFC 9562). */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
// Ids made by a caller's generator: anything printable that keys and cursors carry intact.
const CUSTOM_ID = /^[\x21-\x7e]{1,200}$/
const TIME_MAX = 2 ** 48 - 1

/** Why `id` cannot be an id of a log with this id form, or `undefined` when it can. */
export function idProblem(id: unknown, customIds: boolean): string | undefined {
  if (typeof id !== 'string') return 'must be a string'
  if (customIds) {
    return CUSTOM_ID.test(id)
      ? undefined
      : 'must be 1 to 200 printable ASCII characters, without spaces'
  }
  return UUID_V7.test(id)
    ? undefined
    : 'must be an id of this log: a lowercase UUIDv7 like 0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b'
}

/**
 * A UUIDv7 made from a movie's content: the same movie gets the same id in every run, so an
 * import of rows without ids adds nothing the second time. Its time is the screening (read as
 * UTC), so imported history lists in the order it was watched; the rest is a SHA-256 of the
 * fields, so two different movies get two ids.
 */
export function contentId(movie: Omit<Movie, 'id'>): string {
  // Not the rating or tags: a row is one screening whatever is thought of it, so an export
  // imported before they were kept (IMDb's `Your Rating`) keeps its ids, and adds nothing twice.
  const fields = [movie.title, movie.screenedDate, movie.releaseYear, movie.imdbLink, movie.notes]
  return uuidV7Of(movie.screenedDate, sha256Of(JSON.stringify(fields)))
}

/**
 * A UUIDv7 made from where a row came from (`source`: a service's name for it, such as a
 * Letterboxd diary entry's link) and its screening: the same in every import of that row,
 * whatever the row becomes once matched or corrected, so it is never added twice.
 *
 * @example
 * ```ts
 * sourceId('letterboxd:https://boxd.it/1', '2024-05-01T00:00:00.000') // '018f3197-2800-7…'
 * ```
 */
export function sourceId(source: string, screenedDate: string): string {
  return uuidV7Of(screenedDate, sha256Of(JSON.stringify(['source', source])))
}

// Its time the screening (read as UTC), so imported history lists in the order it was watched.
function uuidV7Of(screenedDate: string, hash: Uint8Array): string {
  const time = Math.min(Math.max(Date.parse(`${screenedDate}Z`) || 0, 0), TIME_MAX)
  const timeHex = time.toString(16).padStart(12, '0')
  // Version 7 in the top nibble of byte 6, variant 10 in the top bits of byte 8.
  const versioned = Uint8Array.of(0x70 | ((hash[0] as number) & 0x0f), hash[1] as number)
  const variant = Uint8Array.of(0x80 | ((hash[2] as number) & 0x3f), hash[3] as number)
  return [
    timeHex.slice(0, 8),
    timeHex.slice(8),
    bytesToHex(versioned),
    bytesToHex(variant),
    bytesToHex(hash.subarray(4, 10)),
  ].join('-')
}
