import { byDate, byId, type DateQuery } from '../../core/driver'
import type { Movie } from '../../core/movie'
import { countTerms, createMemoryTerms, type MemoryTerms } from '../shared/process-terms'

/**
 * A log's movies in one process, kept three ways: by id, in id order and in date order. Every
 * change is made to all three in one synchronous step, so no reader sees them disagree.
 */
export interface MemoryIndex {
  byId: Map<string, Movie>
  added: Movie[]
  dated: Movie[]
  /** Its words and counters, as of the last read of them: read through `countedTerms`. */
  terms: MemoryTerms
  /**
   * The changes since, in order, as flat pairs of a movie and its step (1 added, -1 taken
   * out): counted in when search or statistics next read the terms. Flat, so a change queues
   * no object of its own.
   */
  uncounted: (Movie | 1 | -1)[]
}

export function createMemoryIndex(movies: Movie[]): MemoryIndex {
  return {
    byId: new Map(movies.map((movie) => [movie.id, movie])),
    added: [...movies],
    dated: [...movies].sort(byDate),
    terms: createMemoryTerms(),
    uncounted: movies.flatMap((movie) => [movie, 1]),
  }
}

/**
 * The index's words and counters with every change made so far counted in. Counted when read,
 * not at each write: an add costs no more for search and statistics than a queued entry, and a
 * log nobody searches never builds them. Synchronous, so a read sees every change before it.
 */
export function countedTerms(index: MemoryIndex): MemoryTerms {
  const { uncounted, terms } = index
  if (uncounted.length === 0) return terms
  for (let at = 0; at < uncounted.length; at += 2) {
    countTerms(terms, uncounted[at] as Movie, uncounted[at + 1] as 1 | -1)
  }
  uncounted.length = 0
  return terms
}

function uncount(index: MemoryIndex, movie: Movie, step: 1 | -1): void {
  index.uncounted.push(movie, step)
  // Edits queue two changes each without adding a movie: counted in once the queue outgrows
  // the log, so it never holds more than about one change per movie.
  if (queuedChanges(index) > index.byId.size + QUEUED_BEYOND_LOG) countedTerms(index)
}

const QUEUED_BEYOND_LOG = 1024

/** How many changes wait to be counted in. */
export function queuedChanges(index: MemoryIndex): number {
  return index.uncounted.length / 2
}

/** Adds a movie, or puts it in the place of the one with its id. */
export function keep(index: MemoryIndex, movie: Movie): void {
  const old = index.byId.get(movie.id)
  if (old) drop(index, old)
  insert(index, movie)
}

/**
 * Adds a movie whose id the index does not hold, as the caller has just checked: one lookup
 * of the id fewer than `keep`, in a Map that grows with the log.
 */
export function insert(index: MemoryIndex, movie: Movie): void {
  index.byId.set(movie.id, movie)
  const last = index.added.at(-1)
  // Ids mostly arrive in order: an append, except after a clock step.
  if (last === undefined || last.id < movie.id) index.added.push(movie)
  else index.added.splice(firstAfterNearEnd(index.added, movie, byId), 0, movie)
  // Most movies are logged in about the order they were screened: an append, else a place
  // near the end, searched for from there.
  const latest = index.dated.at(-1)
  if (latest === undefined || byDate(latest, movie) < 0) index.dated.push(movie)
  else index.dated.splice(firstAfterNearEnd(index.dated, movie, byDate), 0, movie)
  uncount(index, movie, 1)
}

/** Removes the movie with this movie's id from all three. */
export function drop(index: MemoryIndex, movie: Movie): void {
  const old = index.byId.get(movie.id)
  if (!old) return
  index.byId.delete(movie.id)
  index.added.splice(firstAfterId(index.added, old.id) - 1, 1)
  index.dated.splice(firstAfter(index.dated, old, byDate) - 1, 1)
  uncount(index, old, -1)
}

/** Movies with an id after `after`, in id order. */
export function pageAfter(index: MemoryIndex, after: string | undefined, limit: number): Movie[] {
  const start = after === undefined ? 0 : firstAfterId(index.added, after)
  return index.added.slice(start, start + limit)
}

/** A date-sorted page: binary searches for its ends, then a slice. */
export function pageByDate(index: MemoryIndex, query: DateQuery, limit: number): Movie[] {
  const { dated } = index
  const low = (date: string, id: string) => ({ screenedDate: date, id }) as Movie
  // Ids are never empty: '' sorts before, '\uffff' after, every id of one date.
  let start = firstAfter(dated, low(query.from, ''), byDate)
  let end = firstAfter(dated, low(query.to, '\uffff'), byDate)
  if (query.after) {
    const point = low(query.after.date, query.after.id)
    if (query.descending) end = Math.min(end, firstAfter(dated, point, byDate, true))
    else start = Math.max(start, firstAfter(dated, point, byDate))
  }
  if (!query.descending) return dated.slice(start, Math.min(end, start + limit))
  const page: Movie[] = []
  for (let position = end - 1; position >= start && page.length < limit; position--) {
    page.push(dated[position] as Movie)
  }
  return page
}

/**
 * Index of the first movie that sorts after `movie` (or, `orEqual`, not before it), searched
 * for from `from` up to `to`.
 */
function firstAfter(
  sorted: Movie[],
  movie: Movie,
  compare: (a: Movie, b: Movie) => number,
  orEqual = false,
  from = 0,
  to = sorted.length,
): number {
  let low = from
  let high = to
  while (low < high) {
    const middle = (low + high) >>> 1
    const order = compare(sorted[middle] as Movie, movie)
    if (order < 0 || (order === 0 && !orEqual)) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * As `firstAfter`, for a movie that most likely belongs near the end: steps back from the end
 * by 1, 2, 4, ... movies, then searches the stretch found. A place k from the end costs about
 * 2 log k comparisons of recently added movies, where a binary search over the whole log
 * compares log n movies scattered through memory (on a long log, a cache miss each).
 */
function firstAfterNearEnd(
  sorted: Movie[],
  movie: Movie,
  compare: (a: Movie, b: Movie) => number,
): number {
  let high = sorted.length
  for (let step = 1; high > 0; step *= 2) {
    const probe = Math.max(0, high - step)
    if (compare(sorted[probe] as Movie, movie) <= 0) {
      return firstAfter(sorted, movie, compare, false, probe + 1, high)
    }
    high = probe
  }
  return 0
}

function firstAfterId(sorted: Movie[], id: string): number {
  return firstAfter(sorted, { id } as Movie, byId)
}
