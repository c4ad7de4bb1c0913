import type { ListMoviesOptions, MoviePage } from './listing'

/** Pages kept at most, store-wide, the most recently read. */
const CAPACITY = 256
/** A page of more movies than this is read each time: the cache holds the pages people browse. */
const LARGEST_PAGE = 500

/**
 * Pages of listings already read, each with the version of its owner's log it was read at: the
 * id of the latest change in the log's history, which every write appends to in the same step
 * as the write (memory, SQLite, PostgreSQL, Redis), so it names the state across processes. A
 * read takes the version first, then serves the kept page only if it was read at that very
 * version: a page read after a change was acknowledged always sees the change, since the
 * version it reads is newer. A page read while a write lands is kept under the version read
 * before it, which the write has already moved past, so it is never served.
 */
export interface PageCache {
  /** The page of `owner`'s listing `options` at `version`, or `undefined` when not kept. */
  get(owner: string, options: ListMoviesOptions, version: string): MoviePage | undefined
  /** Keeps `page`, read after `version` was, and returns it. */
  keep(owner: string, options: ListMoviesOptions, version: string, page: MoviePage): MoviePage
}

export function createPageCache(capacity = CAPACITY): PageCache {
  const pages = new Map<string, { version: string; page: MoviePage }>()
  return {
    get(owner, options, version) {
      const key = keyOf(owner, options)
      const kept = key === undefined ? undefined : pages.get(key)
      if (!kept || kept.version !== version) return undefined
      // Read now: the most recent, last in the map's order.
      pages.delete(key as string)
      pages.set(key as string, kept)
      return copy(kept.page)
    },
    keep(owner, options, version, page) {
      const key = keyOf(owner, options)
      if (key === undefined || page.movies.length > LARGEST_PAGE) return page
      pages.delete(key)
      // Frozen movies: the caller's copy shares them, and their JSON text is kept (movie-json).
      for (const movie of page.movies) Object.freeze(movie)
      pages.set(key, { version, page: copy(page) })
      if (pages.size > capacity) pages.delete(pages.keys().next().value as string)
      return page
    },
  }
}

/** The cache key: the owner and every option that shapes the page; none for a whole listing. */
function keyOf(owner: string, options: ListMoviesOptions): string | undefined {
  const { limit, cursor, sort, from, to, q } = options
  if (limit === undefined) return undefined
  return JSON.stringify([
    owner,
    limit,
    cursor ?? null,
    sort ?? null,
    from ?? null,
    to ?? null,
    q ?? null,
  ])
}

/** A page the caller may change without changing the kept one. */
function copy(page: MoviePage): MoviePage {
  return { movies: page.movies.slice(), nextCursor: page.nextCursor }
}
