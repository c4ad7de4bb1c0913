import type { LogDriver } from './driver'
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
 * before it, which the write has already moved past, so it is never served. A write of this
 * process can show in a page before its change is in the history (the memory store indexes a
 * movie, then writes it through to its keyv store), and fail: a page read while one of the
 * owner's writes is in flight is not kept, since it may hold a movie the store never took.
 */
export interface PageCache {
  /** The page of `owner`'s listing `options` at `version`, or `undefined` when not kept. */
  get(owner: string, options: ListMoviesOptions, version: string): MoviePage | undefined
  /** A mark to take before reading a version and its page, for `keep`. */
  mark(): number
  /**
   * Keeps `page`, read after `version` was, both after `mark`, unless a write of `owner`'s was
   * in flight since then; returns it.
   */
  keep(
    owner: string,
    options: ListMoviesOptions,
    version: string,
    page: MoviePage,
    mark: number,
  ): MoviePage
  /** Tells of a write of `owner`'s, from its start to the returned function's call. */
  writing(owner: string): () => void
}

/** Owners with a write in flight, or one lately: past it, those without are let go. */
const WRITERS_KEPT = 1024

export function createPageCache(capacity = CAPACITY): PageCache {
  const pages = new Map<string, { version: string; page: MoviePage }>()
  // Each owner's writes in flight, and the moment (a count of write starts and ends, store-wide)
  // of its last start or end; an owner let go of is as if it had written at `forgotten`.
  const writers = new Map<string, { inFlight: number; last: number }>()
  let moments = 0
  let forgotten = 0
  const quietSince = (owner: string, mark: number) => {
    const writer = writers.get(owner)
    return writer ? writer.inFlight === 0 && writer.last < mark : forgotten < mark
  }
  return {
    mark: () => ++moments,
    writing(owner) {
      let writer = writers.get(owner)
      if (!writer) {
        if (writers.size >= WRITERS_KEPT) {
          for (const [name, each] of writers) if (each.inFlight === 0) writers.delete(name)
          forgotten = moments
        }
        writer = { inFlight: 0, last: 0 }
        writers.set(owner, writer)
      }
      const started = writer
      started.inFlight++
      started.last = ++moments
      let ended = false
      return () => {
        if (ended) return
        ended = true
        started.inFlight--
        started.last = ++moments
      }
    },
    get(owner, options, version) {
      const key = keyOf(owner, options)
      const kept = key === undefined ? undefined : pages.get(key)
      if (!kept || kept.version !== version) return undefined
      // Read now: the most recent, last in the map's order.
      pages.delete(key as string)
      pages.set(key as string, kept)
      return copy(kept.page)
    },
    keep(owner, options, version, page, mark) {
      const key = keyOf(owner, options)
      if (key === undefined || page.movies.length > LARGEST_PAGE) return page
      if (!quietSince(owner, mark)) return page
      pages.delete(key)
      // Frozen movies: the caller's copy shares them, and their JSON text is kept (movie-json).
      for (const movie of page.movies) Object.freeze(movie)
      pages.set(key, { version, page: copy(page) })
      if (pages.size > capacity) pages.delete(pages.keys().next().value as string)
      return page
    },
  }
}

/** `log`, its movie writes told to `pages` from start to end (see `PageCache.writing`). */
export function withWritesTold(log: LogDriver, pages: PageCache, owner: string): LogDriver {
  const told =
    <A extends unknown[]>(write: (...args: A) => Promise<boolean>) =>
    (...args: A) => {
      const done = pages.writing(owner)
      return write(...args).finally(done)
    }
  return { ...log, put: told(log.put), replace: told(log.replace), remove: told(log.remove) }
}

/** The cache key: the owner and every option that shapes the page; none for a whole listing. */
function keyOf(owner: string, options: ListMoviesOptions): string | undefined {
  const { limit, cursor, sort, from, to, q, tag } = options
  if (limit === undefined) return undefined
  return JSON.stringify([
    owner,
    limit,
    cursor ?? null,
    sort ?? null,
    from ?? null,
    to ?? null,
    q ?? null,
    // As asked: `'Horror'` and `['horror']` are two keys of one page, which costs a read, never
    // a wrong page.
    tag ?? null,
  ])
}

/** A page the caller may change without changing the kept one. */
function copy(page: MoviePage): MoviePage {
  return { movies: page.movies.slice(), nextCursor: page.nextCursor }
}
