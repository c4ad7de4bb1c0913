import type { Movie } from '../movie'

/** Movies kept per index. 4096 movies hold about 2.5 MB, with their JSON text. */
const CAPACITY = 4096

/**
 * Movies an index has read from its store, by id. A movie never changes once added, so a
 * listing reuses the one it read before rather than parsing it again; being the same frozen
 * object, its JSON text is reused too. Bounded: the movies read longest ago go first.
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
      if (movies.size >= capacity && !movies.has(movie.id)) {
        movies.delete(movies.keys().next().value as string)
      }
      movies.set(movie.id, frozen)
      return frozen
    },
  }
}
