import type { Movie } from '../core/movie'

/**
 * What the core asks of a store, and all it asks. One driver per kind of store (memory,
 * Redis, SQL, scan), chosen once per log by `createDriver`; each owns its key layout, its
 * ordered index, its create-if-absent and its compare-and-set.
 */
export interface MovieDriver {
  /** Whether a call can hang (a store across a network): the core bounds those with a timeout. */
  readonly remote: boolean
  /** Stores a new movie; once this resolves, it is listed. Storing the same movie twice is harmless. */
  put(movie: Movie): Promise<void>
  /** The movie with this id, or `undefined`. */
  get(id: string): Promise<Movie | undefined>
  /** Movies with an id after `after`, in id order (the order they were added), at most `limit`. */
  listAfter(after: string | undefined, limit: number): Promise<Movie[]>
  /**
   * Compare-and-set: stores `next` in place of the movie with the same id only if the stored
   * movie still equals `expected`, atomically against every other writer of the store.
   * True when it did; false when the movie changed or is gone.
   */
  replace(expected: Movie, next: Movie): Promise<boolean>
  /** Create-if-absent: stores `value` unless a live record is under `key`; true when this call did. */
  create(key: string, value: string, ttlMs: number): Promise<boolean>
  /** The live record under `key`, or `undefined`. */
  read(key: string): Promise<string | undefined>
  /** Overwrites the record under `key`. */
  write(key: string, value: string, ttlMs: number): Promise<void>
}

/** Keys of movies inside the log's namespace: `movie:<id>`. */
export const MOVIE_KEY_PREFIX = 'movie:'

export const movieKey = (id: string) => MOVIE_KEY_PREFIX + id

/** Keys of records (idempotency claims) inside the log's namespace. */
export const RECORD_KEY_PREFIX = 'idempotency:'

/** Sorts movies by id, as strings compare (UUIDv7 ids sort in the order they were made). */
export function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
