import { type CursorKeyRead, decodeCursor, encodeCursor, type Position } from './cursor'
import type { LogDriver } from './driver'
import { InvalidPageRequestError } from './errors'
import { listAddedInRange } from './in-range'
import type { Movie } from './movie'
import { FULL_RANGE, type Listing, type MovieSort, parseListing } from './range'
import { searchPage } from './search'
import { tagTermsOf } from './tag-filter'
import { parseWordQuery, Q_MAX, withTags } from './words'

/**
 * What `listMovies` takes. Without `limit`, every movie after `cursor` (or from the start).
 *
 * @example
 * ```ts
 * const first = await log.listMovies({ sort: '-screenedDate', from: '2024', limit: 50 })
 * const second = await log.listMovies({ limit: 50, cursor: first.nextCursor })
 * ```
 */
export interface ListMoviesOptions {
  /** At most this many movies; a positive integer. */
  limit?: number
  /** `nextCursor` of the previous page: it carries that listing's sort and range. */
  cursor?: string | null
  /** `'added'` (default), `'screenedDate'` or `'-screenedDate'` (latest screened first). */
  sort?: MovieSort
  /** Earliest screenedDate listed: `YYYY`, `YYYY-MM`, `YYYY-MM-DD` or a full local timestamp. */
  from?: string
  /** Latest screenedDate listed, inclusive of the whole period named (`'2024'`: all of 2024). */
  to?: string
  /**
   * Only movies whose title or notes hold every word of `q` (case and accents ignored; the last
   * word may be the start of a word: `'cinema para'` finds "Cinéma Paradiso").
   */
  q?: string
  /**
   * Only movies with every one of these tags (case and accents ignored): one tag or several; an
   * empty list names none (as over HTTP, where it is no `tag` parameter).
   */
  tag?: string | readonly string[]
}

/**
 * One page of the log, in the listing's order.
 *
 * @example
 * ```ts
 * const { movies, nextCursor }: MoviePage = await log.listMovies({ limit: 50 })
 * ```
 */
export interface MoviePage {
  movies: Movie[]
  /** Pass as `cursor` for the next page; `null` when this page reached the end. */
  nextCursor: string | null
}

/** A listing's options, checked: what `readPage` reads. */
export interface PageRequest {
  limit: number | undefined
  listing: Listing
  after: Position | undefined
}

/**
 * Checks a listing's options before any read of a movie; an `InvalidPageRequestError` names each
 * bad one. A cursor is checked against the log's key (`keys`: the one kept, then the store's).
 */
export async function checkPageRequest(
  options: ListMoviesOptions,
  keys: CursorKeyRead[],
): Promise<PageRequest> {
  const { limit, cursor } = options
  if (Array.isArray(options.tag) && options.tag.length === 0)
    options = { ...options, tag: undefined }
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit > 0)) {
    throw new InvalidPageRequestError([{ path: 'limit', message: 'must be a positive integer' }])
  }
  const asked = parseListing(options.sort, options.from, options.to)
  if (options.q !== undefined) asked.q = checkQ(options.q)
  if (options.tag !== undefined) asked.tags = tagTermsOf(options.tag)
  const after = cursor == null ? undefined : await decodeCursor(cursor, keys)
  if (after && !agrees(options, asked, after.listing)) {
    throw new InvalidPageRequestError([
      {
        path: 'cursor',
        message:
          'belongs to another sort, range, search or tags: repeat the sort, from, to, q and tag it was made with',
      },
    ])
  }
  return { limit, listing: after?.listing ?? asked, after }
}

/** The page a checked request names; its `nextCursor` signed with the log's key. */
export async function readPage(
  driver: LogDriver,
  request: PageRequest,
  key: CursorKeyRead,
): Promise<MoviePage> {
  const { limit, listing, after } = request
  // One extra movie tells whether another page follows without a second query.
  const movies = await read(driver, listing, after, limit === undefined ? Infinity : limit + 1)
  if (limit === undefined || movies.length <= limit) return { movies, nextCursor: null }
  const page = movies.slice(0, limit)
  const last = page.at(-1) as Movie
  return {
    movies: page,
    nextCursor: await encodeCursor({ listing, id: last.id, date: last.screenedDate }, await key()),
  }
}

/** Whether what the call names (sort, from, to) is what the cursor was made with. */
function agrees(options: ListMoviesOptions, asked: Listing, made: Listing): boolean {
  return (
    (options.sort === undefined || asked.sort === made.sort) &&
    (options.from === undefined || asked.from === made.from) &&
    (options.to === undefined || asked.to === made.to) &&
    (options.q === undefined || asked.q === made.q) &&
    (options.tag === undefined || String(asked.tags) === String(made.tags))
  )
}

function checkQ(q: unknown): string {
  if (typeof q === 'string' && q.length <= Q_MAX) return q
  throw new InvalidPageRequestError([
    { path: 'q', message: `must be a string of at most ${Q_MAX} characters` },
  ])
}

async function read(
  driver: LogDriver,
  listing: Listing,
  after: Position | undefined,
  wanted: number,
): Promise<Movie[]> {
  // A q without a word (empty, or punctuation alone) asks for no word: every movie answers.
  const inQ = listing.q === undefined ? undefined : parseWordQuery(listing.q)
  const words = listing.tags ? withTags(inQ, listing.tags) : inQ
  if (words) {
    const walk = (within: Listing, from: Position | undefined, count: number) =>
      readListing(driver, within, from, count)
    return searchPage(driver, walk, words, listing, after, wanted)
  }
  return readListing(driver, listing, after, wanted)
}

async function readListing(
  driver: LogDriver,
  listing: Listing,
  after: Position | undefined,
  wanted: number,
): Promise<Movie[]> {
  if (listing.sort !== 'added') {
    const descending = listing.sort === '-screenedDate'
    const resume = after && { date: after.date, id: after.id }
    return driver.listByDate(
      { descending, from: listing.from, to: listing.to, after: resume },
      wanted,
    )
  }
  const unbounded = listing.from === FULL_RANGE.from && listing.to === FULL_RANGE.to
  if (unbounded) return driver.listAfter(after?.id, wanted)
  return listAddedInRange(driver, after?.id, listing, wanted)
}
