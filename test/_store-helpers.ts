import type { ListMoviesOptions, Movie, MovieLog, MovieLogStore } from 'movie-log'
import { expect } from 'vitest'
import { aMovie } from './_movies'

/** The sort and range of a listing, as `listMovies` takes them. */
export type Listing = Pick<ListMoviesOptions, 'sort' | 'from' | 'to'>

export const SORTS = ['added', 'screenedDate', '-screenedDate'] as const

/**
 * What a listing must give, worked out the simplest way: a movie is in range when its
 * `screenedDate` cut to the bound's length is not before `from` and not after `to` (so `to:
 * '2024-02'` runs to the last instant of February, leap day included); then sorted, ties in id
 * order in the sort's direction.
 */
export function expectedListing(movies: Iterable<Movie>, listing: Listing = {}): Movie[] {
  const { sort = 'added', from, to } = listing
  const inRange = [...movies].filter(
    ({ screenedDate }) =>
      (from === undefined || screenedDate.slice(0, from.length) >= from) &&
      (to === undefined || screenedDate.slice(0, to.length) <= to),
  )
  const byId = (a: Movie, b: Movie) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  const byDate = (a: Movie, b: Movie) =>
    a.screenedDate < b.screenedDate ? -1 : a.screenedDate > b.screenedDate ? 1 : byId(a, b)
  if (sort === 'added') return inRange.sort(byId)
  const sorted = inRange.sort(byDate)
  return sort === '-screenedDate' ? sorted.reverse() : sorted
}

/**
 * Walks every page of a listing, `limit` movies a page (a number, or a function giving each
 * page's), calling `between` after each page; returns the ids seen.
 */
export async function walkPages(
  log: MovieLog,
  limit: number | (() => number),
  between: (seen: string[]) => Promise<unknown> = async () => {},
  listing: Listing = {},
): Promise<string[]> {
  const seen: string[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    // A cursor that never reaches the end fails the test instead of hanging it.
    if (++pages > 2000) throw new Error(`no end after 2000 pages: ${seen.length} movies seen`)
    const size = typeof limit === 'number' ? limit : limit()
    const page = await log.listMovies({ ...listing, limit: size, cursor })
    expect(page.movies.length).toBeLessThanOrEqual(size)
    seen.push(...page.movies.map((movie) => movie.id))
    cursor = page.nextCursor
    await between(seen)
  } while (cursor !== null)
  return seen
}

export async function addMany(
  log: MovieLog,
  count: number,
  input: (n: number) => Parameters<MovieLog['addMovie']>[0] = (n) =>
    aMovie({ title: `Movie ${n}` }),
): Promise<Movie[]> {
  const added: Movie[] = []
  // Batches keep the store busy without making the expected order depend on timing.
  for (let start = 0; start < count; start += 25) {
    const batch = Array.from({ length: Math.min(25, count - start) }, (_, n) =>
      log.addMovie(input(start + n)),
    )
    added.push(...(await Promise.all(batch)))
  }
  return added
}

/** The error a promise rejects with, or `undefined` when it resolves. */
export const rejection = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  )

/**
 * Makes every way of walking a whole store throw: a keyv `iterator()` on the store and on what
 * it wraps, and a Map's `keys`, `entries`, `values`, `forEach` and iteration. Returns the undo.
 */
export function trapWalks(store: MovieLogStore): () => void {
  const walk = () => {
    throw new Error('iterated the whole store')
  }
  const undo: (() => void)[] = []
  const trap = (target: object, names: (string | symbol)[]) => {
    for (const name of names) {
      if (!(name in target)) continue
      const own = Object.getOwnPropertyDescriptor(target, name)
      Object.defineProperty(target, name, { value: walk, configurable: true, writable: true })
      undo.push(() =>
        own
          ? Object.defineProperty(target, name, own)
          : delete (target as Record<string | symbol, unknown>)[name],
      )
    }
  }
  const mapWalks = ['keys', 'entries', 'values', 'forEach', Symbol.iterator]
  let layer: unknown = store
  // A Keyv, the adapter it holds, and the Map that adapter may hold (keyv 6).
  for (let depth = 0; depth < 3 && typeof layer === 'object' && layer !== null; depth++) {
    trap(layer, layer instanceof Map ? mapWalks : ['iterator'])
    layer = (layer as { store?: unknown }).store
  }
  return () => {
    for (const step of undo.reverse()) step()
  }
}
