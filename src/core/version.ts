import type { Movie } from './movie'

/**
 * The version tag of a movie, derived from its content alone: the same movie has the same tag
 * in every process, and in a browser (pure JavaScript, no Node API). 16 hex characters, from
 * two 32-bit FNV-1a hashes with different seeds over the fields in a fixed order (the rating
 * and tags only when set); an
 * `ETag` is this tag in quotes.
 *
 * @example
 * ```ts
 * await log.updateMovie(movie.id, { notes: 'Seen twice' }, { ifMatch: versionOf(movie) })
 * ```
 */
export function versionOf(movie: Movie): string {
  const text = JSON.stringify([movie.id, ...contentOf(movie)])
  // Both hashes in one pass over the text: the tag is read with every add and edit.
  let first = 0x811c9dc5
  let second = 0x050c5d1f
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    first = Math.imul(first ^ code, 0x01000193)
    second = Math.imul(second ^ code, 0x01000193)
  }
  return hex(mixed(first)) + hex(mixed(second))
}

/**
 * A movie's content in a fixed order, for what is derived from it (its version tag, an import's
 * content id): the rating and tags only when set, so a movie without them keeps what it had.
 */
export function contentOf(movie: Omit<Movie, 'id'>): unknown[] {
  const fields: unknown[] = [
    movie.title,
    movie.screenedDate,
    movie.releaseYear,
    movie.imdbLink,
    movie.notes,
  ]
  if (movie.rating !== undefined) fields.push(['rating', movie.rating])
  if (movie.tags !== undefined) fields.push(['tags', movie.tags])
  return fields
}

/** A final mix of an FNV-1a hash: spreads the last characters over every bit. */
function mixed(hash: number): number {
  let mix = hash ^ (hash >>> 16)
  mix = Math.imul(mix, 0x85ebca6b)
  mix ^= mix >>> 13
  return mix >>> 0
}

// Each byte's two hex digits: a number's toString(16) is the slow part of a tag otherwise.
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

function hex(value: number): string {
  return (
    (HEX_BYTES[value >>> 24] as string) +
    HEX_BYTES[(value >>> 16) & 0xff] +
    HEX_BYTES[(value >>> 8) & 0xff] +
    HEX_BYTES[value & 0xff]
  )
}
