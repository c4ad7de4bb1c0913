import type { Movie } from '../core/movie'

/** A date-sorted listing's bounds and where it resumes, for `listByDate`. */
export interface DateQuery {
  /** Latest screened first (ties: greater id first) rather than earliest first. */
  descending: boolean
  /** Bounds on screenedDate, full local timestamps, inclusive. */
  from: string
  to: string
  /** Resume after this movie in the listing's order. */
  after?: { date: string; id: string }
}

/**
 * What the core asks of a store, and all it asks. One driver per kind of store (memory,
 * Redis, SQL, scan), chosen once per log by `createDriver`; each owns its key layout, its
 * ordered indexes, its create-if-absent and its compare-and-set.
 */
export interface MovieDriver {
  /** Whether a call can hang (a store across a network): the core bounds those with a timeout. */
  readonly remote: boolean
  /**
   * Create-if-absent: stores a new movie, with its indexes, unless a movie with its id is there.
   * True when this call stored it; once it resolves, the movie is listed.
   */
  put(movie: Movie): Promise<boolean>
  /** The movie with this id, or `undefined`. */
  get(id: string): Promise<Movie | undefined>
  /** Movies with an id after `after`, in id order (the order they were added), at most `limit`. */
  listAfter(after: string | undefined, limit: number): Promise<Movie[]>
  /** Movies screened within the query's bounds, by (screenedDate, id), at most `limit`. */
  listByDate(query: DateQuery, limit: number): Promise<Movie[]>
  /**
   * Movies screened within `from`..`to` (inclusive) with an id after `after`, in id order, at
   * most `limit`: each driver picks the cheaper of its two indexes for the range.
   */
  listAddedInRange(
    after: string | undefined,
    range: { from: string; to: string },
    limit: number,
  ): Promise<Movie[]>
  /**
   * Compare-and-set: stores `next` in place of the movie with the same id, and moves it in the
   * date index, only if the stored movie still equals `expected`, atomically against every
   * other writer of the store. True when it did; false when the movie changed or is gone.
   */
  replace(expected: Movie, next: Movie): Promise<boolean>
  /** Compare-and-delete: removes the movie and its index entries only if it still equals `expected`. */
  remove(expected: Movie): Promise<boolean>
  /** Create-if-absent: stores `value` unless a live record is under `key`; true when this call did. */
  create(key: string, value: string, ttlMs: number): Promise<boolean>
  /** The live record under `key`, or `undefined`. */
  read(key: string): Promise<string | undefined>
  /** Overwrites the record under `key`. */
  write(key: string, value: string, ttlMs: number): Promise<void>
}

/** What each driver writes itself; `createDriver` adds the rest, built on it. */
export type BaseDriver = Omit<MovieDriver, 'listAddedInRange'>

/** Keys of movies inside the log's namespace: `movie:<id>`. */
export const MOVIE_KEY_PREFIX = 'movie:'

export const movieKey = (id: string) => MOVIE_KEY_PREFIX + id

/** Keys of records (idempotency claims, deletions) inside the log's namespace. */
export const RECORD_KEY_PREFIX = 'idempotency:'

/** Sorts movies by id, as strings compare (UUIDv7 ids sort in the order they were made). */
export function byId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

/** Sorts movies by screenedDate, then id: the order of `listByDate`, earliest first. */
export function byDate(a: Movie, b: Movie): number {
  if (a.screenedDate !== b.screenedDate) return a.screenedDate < b.screenedDate ? -1 : 1
  return byId(a, b)
}

/** Whether `movie` comes after the query's resume point, in the query's order. */
export function isAfter(query: DateQuery, movie: Movie): boolean {
  const { after } = query
  if (!after) return true
  const order = byDate(movie, { screenedDate: after.date, id: after.id } as Movie)
  return query.descending ? order < 0 : order > 0
}
