import type { Movie } from '../../core/movie'

/** Movies kept per index. 4096 movies hold about 2.5 MB, with their JSON text. */
const CAPACITY = 4096

/**
 * Movies an index has read from its store, by the exact text the store holds: a listing reuses
 * the movie it parsed before rather than parsing it again, and being the same frozen object,
 * its JSON text is reused too. Keyed by content, it cannot serve an old version: a movie
 * edited (here or by another process) is new text, read and parsed anew. Bounded, and
 * without eviction: once full, the movies read first stay (the first pages, the ones most
 * listed), and a long listing's movies are not kept, so they die young instead of churning
 * through the cache and the old generation.
 */
export interface MovieCache {
  get(stored: string): Movie | undefined
  /** Keeps the movie (frozen) under the text it was read from, and returns it. */
  keep(stored: string, movie: Movie): Movie
}

export function createMovieCache(capacity = CAPACITY): MovieCache {
  const movies = new Map<string, Movie>()
  return {
    get: (stored) => movies.get(stored),
    keep: (stored, movie) => {
      const frozen = Object.freeze(movie)
      if (movies.size < capacity) movies.set(stored, frozen)
      return frozen
    },
  }
}
