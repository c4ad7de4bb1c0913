import type { Movie } from '../core/movie'

/** Movies kept per index. 4096 movies hold about 2.5 MB, with their JSON text. */
const CAPACITY = 4096

/**
 * Movies an index has read from its store, by id. A movie never changes once added, so a
 * listing reuses the one it read before rather than parsing it again; being the same frozen
 * object, its JSON text is reused too. Bounded, and without eviction: once full, the movies
 * read first stay (the first pages, the ones most listed), and a long listing's movies are not
 * kept, so they die young instead of churning through the cache and the old generation.
 */
export interface MovieCache {
  get(id: string): Movie | undefined
  /** Keeps the movie (frozen) and returns it. */
  keep(movie: Movie): Movie
}

export function createMovieCache(capacity = CAPACITY): MovieCache {
  const movies = new Map<string, Movie>()
  return {
    get: (id) => movies.get(id),
    keep: (movie) => {
      const frozen = Object.freeze(movie)
      if (movies.size < capacity) movies.set(movie.id, frozen)
      return frozen
    },
  }
}
