import { createLru } from '../../core/lru'
import type { Movie } from '../../core/movie'

/** Movies kept per index. 4096 movies hold about 2.5 MB, with their JSON text. */
const CAPACITY = 4096

/**
 * Movies an index has read from its store, by the exact text the store holds: a listing reuses
 * the movie it parsed before rather than parsing it again, and being the same frozen object,
 * its JSON text is reused too. Keyed by content, it cannot serve an old version: a movie
 * edited (here or by another process) is new text, read and parsed anew, and the old text ages
 * out. Bounded by core/lru.ts: the movies read least recently go, so a log running for months
 * keeps caching the movies it lists now.
 */
export interface MovieCache {
  get(stored: string): Movie | undefined
  /** Keeps the movie (frozen) under the text it was read from, and returns it. */
  keep(stored: string, movie: Movie): Movie
}

/**
 * @example
 * const cache = createMovieCache()
 * const movie = cache.get(text) ?? cache.keep(text, JSON.parse(text))
 */
export function createMovieCache(capacity = CAPACITY): MovieCache {
  const movies = createLru<string, Movie>(capacity)
  return {
    get: (stored) => movies.get(stored),
    keep: (stored, movie) => {
      const frozen = Object.freeze(movie)
      movies.set(stored, frozen)
      return frozen
    },
  }
}
