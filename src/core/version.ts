import type { Movie } from './movie'

/**
 * The version tag of a movie, derived from its content alone: the same movie has the same tag
 * in every process, and in a browser (pure JavaScript, no Node API). 16 hex characters, from
 * two 32-bit FNV-1a hashes with different seeds over the six fields in a fixed order; an
 * `ETag` is this tag in quotes.
 *
 * @example
 * ```ts
 * await log.updateMovie(movie.id, { notes: 'Seen twice' }, { ifMatch: versionOf(movie) })
 * ```
 */
export function versionOf(movie: Movie): string {
  const text = JSON.stringify([
    movie.id,
    movie.title,
    movie.screenedDate,
    movie.releaseYear,
    movie.imdbLink,
    movie.notes,
  ])
  return hex(fnv1a(text, 0x811c9dc5)) + hex(fnv1a(text, 0x050c5d1f))
}

function fnv1a(text: string, seed: number): number {
  let hash = seed
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  // A final mix spreads the last characters over every bit.
  hash ^= hash >>> 16
  hash = Math.imul(hash, 0x85ebca6b)
  hash ^= hash >>> 13
  return hash >>> 0
}

function hex(value: number): string {
  return value.toString(16).padStart(8, '0')
}
