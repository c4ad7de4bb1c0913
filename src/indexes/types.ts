import type { Movie } from '../movie'

/** Keys of movies inside the log's namespace: `movie:<id>`. */
export const MOVIE_KEY_PREFIX = 'movie:'

export const movieKey = (id: string) => MOVIE_KEY_PREFIX + id

/**
 * How one kind of store keeps movies listable in id order (the order they were added).
 * Reads by id always go through keyv, so every index stores movies where keyv finds them.
 */
export interface MovieIndex {
  /** Stores a movie; once this resolves, it is listed. */
  put(movie: Movie): Promise<void>
  /** Movies with an id after `after`, in id order, at most `limit` (`Infinity`: all). */
  listAfter(after: string | undefined, limit: number): Promise<Movie[]>
}

/** Sorts movies by id, as strings compare (UUIDv7 ids sort in the order they were made). */
export function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
