/**
 * The driver port: all the core asks of a store, and all a store's driver implements. A driver
 * is store-wide (one connection, opened once); `log(owner)` gives one owner's log on it, which
 * costs nothing that stays. Drivers depend on this file and on the core's pure movie rules.
 */
import type { StoreFailure } from './errors'
import type { Movie } from './movie'
import type { TallyRead } from './tallies'
import type { WordQuery } from './words'

/** The owner of the one diary of `createMovieLog(store)`: no caller can name it. */
export const SOLE_OWNER = ''

/**
 * How many of a log's latest changes its history keeps (`changesAfter` reads them; a watcher
 * further behind gets `reset`). One figure for every driver: a client that catches up on one
 * store catches up on any.
 * @example
 * if (entries.length > HISTORY_BOUND) entries.shift()
 */
export const HISTORY_BOUND = 1000

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

/** A search page's order, bounds on screenedDate (inclusive) and resume point, for `searchPage`. */
export interface SearchPageQuery {
  /** A listing's sort (`MovieSort`, spelled here: the port imports no listing rules). */
  sort: 'added' | 'screenedDate' | '-screenedDate'
  from: string
  to: string
  after?: { date: string; id: string }
}

/** One change of a log, as its history keeps it: `id` orders it within the log (opaque). */
export type StoredChange =
  | { id: string; type: 'added' | 'updated'; movie: Movie }
  | { id: string; type: 'deleted'; movie: { id: string } }

/** A read of a log's history: the changes after a point, or `reset` when it no longer reaches it. */
export interface ChangeRead {
  changes: StoredChange[]
  /** True when `after` is older than the oldest change kept (or names no change of this log). */
  reset: boolean
}

/**
 * One owner's log on a store: its movies in two orders (by id, which is the order added, and by
 * screenedDate), create-if-absent and compare-and-set of movies, and records (idempotency
 * claims, deletions) that expire. Every write is atomic against every other writer of the store
 * where the driver says so (`StoreDriver.atomic`).
 */
export interface LogDriver {
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
   * Compare-and-set: stores `next` in place of the movie with the same id, and moves it in the
   * date index, only if the stored movie still equals `expected`. True when it did; false when
   * the movie changed or is gone.
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
  /**
   * The changes after `after`, oldest first, at most `limit`; without `after`, from the oldest
   * change kept (never `reset`: what a watch begun on a log with no change reads). Every
   * put/replace/remove that returned true appended exactly one change, atomically with the
   * write; a write that returned false appended none.
   */
  changesAfter(after: string | undefined, limit: number): Promise<ChangeRead>
  /** The id of the latest change kept, or `undefined` when the log has none. */
  latestChange(): Promise<string | undefined>
  /**
   * Movies whose words (`movieWords` of title and notes) hold every word of `query.whole` and
   * one starting with `query.prefix`, from an index of words kept with the movies (never a read
   * of every movie, but on the scan): at most `limit`, in any order.
   */
  search(query: WordQuery, limit: number): Promise<Movie[]>
  /**
   * A page of a search in the listing's order (`sort`, ties by id), within `from`..`to`, after
   * `after`, at most `limit`: the same movies `search` finds, read from an index of the words in
   * that order, stopping at the limit. Optional, and `undefined` from a store without that
   * index (a wrapper knows only once the store is open): the core then orders `search`'s.
   */
  searchPage?(query: WordQuery, page: SearchPageQuery, limit: number): Promise<Movie[] | undefined>
  /**
   * The counters `termsOf` names, kept with the movies in the same write: those of the months
   * `from`..`to` (`YYYY-MM`, inclusive) at least, and the repeats of every link screened more
   * than once.
   */
  tallies(from: string, to: string): Promise<TallyRead>
  /**
   * Counts in the terms of the movies added without them (a driver whose adds leave them to the
   * next search or count: SQLite's): an import calls it after each batch, so that it leaves no
   * work to the first search.
   */
  countTerms?(): Promise<void>
  /**
   * Counts in one batch of this owner's movies added without terms, and answers how many are
   * left: the core calls it before a search or count, a store call per batch, so a backlog of
   * adds costs its own owner's read batches each within the store timeout, never one timeout
   * for all, and another owner's read nothing (SQLite's and Redis's).
   */
  countPending?(): Promise<number>
}

/**
 * A store, as one driver opens it: memory, Redis, SQLite or PostgreSQL through its own client,
 * or any keyv store through keyv's public API (the scan). Chosen once, by the composition root.
 */
export interface StoreDriver {
  /** Names the kind of store in messages: `'memory'`, `'redis'`, `'sqlite'`, ... */
  readonly kind: string
  /** Whether a call can hang (a store across a network): the core bounds those with a timeout. */
  readonly remote: boolean
  /**
   * Whether create-if-absent and compare-and-set hold across processes (false: within this
   * process only, as for the scan over a plain keyv store).
   */
  readonly atomic: boolean
  /** One owner's log. Does no I/O and keeps nothing per owner. */
  log(owner: string): LogDriver
  /** Deletes one owner's movies, indexes and records, and nothing else. */
  drop(owner: string): Promise<void>
  /**
   * A page of the owners with at least one movie, in code-point order (`byCodePoint`), after
   * `after` (from the first without it), at most `limit` (all without it). Never the one diary's
   * owner, `SOLE_OWNER`.
   */
  owners(after?: string, limit?: number): Promise<string[]>
  /**
   * The driver's classifier: whether an error one of its calls raised is its store failing
   * (unreachable, refused, out of disk, locked), and why, read from its client's own codes;
   * `undefined` for anything it does not recognise. Only what it recognises becomes
   * `StoreUnavailableError` (503); anything else is a bug, answered 500 and logged.
   */
  classifyFailure(error: unknown): StoreFailure | undefined
  /** Releases what the driver opened; a connection the caller passed in is left open. */
  close(): Promise<void>
  /**
   * Calls `wake` soon after any process changes the owner's log (it may call it spuriously;
   * the reader then reads `changesAfter`). Returns the function that stops it. One listener
   * connection / poller per store, shared by every watch.
   */
  onChange(owner: string, wake: () => void): () => void
}

/**
 * Compares two strings by code point, the order owners are listed in: UTF-8 byte order, which
 * SQLite, PostgreSQL (`COLLATE "C"`) and Redis (lexical ranges) compare by, where JavaScript's
 * `<` compares UTF-16 units (a character past U+FFFF would sort before U+E000..U+FFFF).
 */
export function byCodePoint(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let at = 0; at < length; at++) {
    const left = a.codePointAt(at) as number
    const right = b.codePointAt(at) as number
    if (left !== right) return left < right ? -1 : 1
  }
  return a.length - b.length
}

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

/**
 * Whether an error is one of JavaScript's own (a `TypeError`, a `RangeError`, ...): a bug in
 * the code, never the store failing, whichever driver raised it.
 */
export function isProgrammingError(error: unknown): boolean {
  return (
    error instanceof TypeError ||
    error instanceof RangeError ||
    error instanceof ReferenceError ||
    error instanceof SyntaxError ||
    error instanceof EvalError
  )
}
