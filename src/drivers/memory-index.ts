import { byDate, type DateQuery } from '../core/driver'
import type { Movie } from '../core/movie'
import { countTerms, createMemoryTerms, type MemoryTerms } from './memory-terms'

/**
 * A log's movies in one process, kept three ways: by id, in id order and in date order. Every
 * change is made to all three in one synchronous step, so no reader sees them disagree.
 */
export interface MemoryIndex {
  byId: Map<string, Movie>
  added: Movie[]
  dated: Movie[]
  /** Its words and counters: search and statistics. */
  terms: MemoryTerms
}

export function createMemoryIndex(movies: Movie[]): MemoryIndex {
  const added = [...movies]
  const terms = createMemoryTerms()
  for (const movie of movies) countTerms(terms, movie, 1)
  return {
    byId: new Map(movies.map((movie) => [movie.id, movie])),
    added,
    dated: [...movies].sort(byDate),
    terms,
  }
}

/** Adds a movie, or puts it in the place of the one with its id. */
export function keep(index: MemoryIndex, movie: Movie): void {
  const old = index.byId.get(movie.id)
  if (old) drop(index, old)
  index.byId.set(movie.id, movie)
  const last = index.added.at(-1)
  // Ids mostly arrive in order: an append, except after a clock step.
  if (last === undefined || last.id < movie.id) index.added.push(movie)
  else index.added.splice(firstAfterId(index.added, movie.id), 0, movie)
  index.dated.splice(firstAfter(index.dated, movie, byDate), 0, movie)
  countTerms(index.terms, movie, 1)
}

/** Removes the movie with this movie's id from all three. */
export function drop(index: MemoryIndex, movie: Movie): void {
  const old = index.byId.get(movie.id)
  if (!old) return
  index.byId.delete(movie.id)
  index.added.splice(firstAfterId(index.added, old.id) - 1, 1)
  index.dated.splice(firstAfter(index.dated, old, byDate) - 1, 1)
  countTerms(index.terms, old, -1)
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

/** Index of the first movie that sorts after `movie` (or, `orEqual`, not before it). */
function firstAfter(
  sorted: Movie[],
  movie: Movie,
  compare: (a: Movie, b: Movie) => number,
  orEqual = false,
): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    const order = compare(sorted[middle] as Movie, movie)
    if (order < 0 || (order === 0 && !orEqual)) low = middle + 1
    else high = middle
  }
  return low
}

function firstAfterId(sorted: Movie[], id: string): number {
  return firstAfter(sorted, { id } as Movie, (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}
