import type { MovieChanges } from '../core/changes'
import type { ChangeOptions } from '../core/corrections'
import { MovieNotFoundError, PreconditionFailedError } from '../core/errors'
import type { ListMoviesOptions, MoviePage } from '../core/listing'
import type { Movie } from '../core/movie'
import type { AddMovieOptions, MovieLog } from '../core/movie-log'
import type { MovieStats, StatsOptions } from '../core/stats'
import { type LogChange, setWatchStart, type WatchOptions, watchStartOf } from '../core/watch'
import { errorFrom, isLogProblem, readProblem } from './errors'
import { type NotALogAnswer, notALogError } from './not-a-log'
import { send } from './send'
import type { FeedConnection } from './watch'

/**
 * Options of `createMovieLogClient`.
 *
 * @example
 * ```ts
 * createMovieLogClient('https://example.org/movies', {
 *   headers: { authorization: `Bearer ${token}` },
 *   retries: 5,
 *   timeoutMs: 5000,
 * })
 * ```
 */
export interface MovieLogClientOptions {
  /** The fetch to call: a wrapped one, a test double. Default: the global `fetch`. */
  fetch?: typeof fetch
  /** Headers sent with every request (`authorization`, say). */
  headers?: HeadersInit
  /**
   * How many times a call is tried again after a network failure, a 503 or a 409, waiting as
   * the answer's `Retry-After` says or backing off (0.1 s doubling, with jitter). Default 6: an
   * add rides out a store that drops its connections, or is out for half a minute. An update
   * or delete (no Idempotency-Key) is not tried again once it may have landed: after a lost
   * answer, or a 503 with `mayHaveLanded`.
   */
  retries?: number
  /** How long one attempt may take, answer and body, in ms. Default 10000. */
  timeoutMs?: number
}

// The pages a full list is walked in: the handler's default largest page.
const WALK_PAGE_SIZE = 1000
const NEXT_LINK = /<([^>]*)>\s*;\s*rel="?next"?/

/**
 * The log over HTTP: `url` is where a movie-log handler is mounted. It answers as the core does,
 * errors included (`MovieValidationError` with the same `issues`, `StoreUnavailableError`, ...).
 * Every add carries an `Idempotency-Key`, so the adds it retries make one movie. Browser-safe.
 *
 * @example
 * ```ts
 * import { createMovieLogClient } from 'movie-log/client'
 *
 * const log = createMovieLogClient('https://example.org/movies')
 * const movie = await log.addMovie({
 *   title: 'Heat',
 *   screenedDate: '2024-05-01T20:30:00.000',
 *   releaseYear: 1995,
 *   imdbLink: 'https://www.imdb.com/title/tt0113277/',
 * })
 * const { movies } = await log.listMovies()
 * ```
 */
export function createMovieLogClient(
  url: string | URL,
  options: MovieLogClientOptions = {},
): MovieLog {
  const base = String(url).replace(/\/+$/, '')
  const sendOptions = {
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    retries: options.retries ?? 6,
    timeoutMs: options.timeoutMs ?? 10_000,
  }

  const call = (target: string, operation: string, init: RequestInit = {}) => {
    const headers = new Headers(options.headers)
    headers.set('accept', 'application/json')
    for (const [name, value] of new Headers(init.headers)) headers.set(name, value)
    return send(target, { ...init, headers }, operation, sendOptions)
  }

  // `base` answered as no log does: an error naming it (and the log its JSON points at, if any).
  const notALog = (answer: NotALogAnswer) =>
    notALogError(base, answer, async (url) => (await call(url, 'listMovies')).json())

  /** The error of a failed answer: the core's, or, for an answer no log gives, one naming `base`. */
  async function failure(response: Response, operation: string): Promise<Error> {
    const problem = await readProblem(response)
    // The log answers 404 only for a movie it lacks, and 405 to no request this client sends.
    if ((response.status === 404 || response.status === 405) && !isLogProblem(problem)) {
      return notALog({ status: response.status, problem })
    }
    return errorFrom(response, operation, problem)
  }

  /** Whether the answer is the log's 404 for a movie it does not have (any other 404 throws). */
  async function movieMissing(response: Response): Promise<boolean> {
    if (response.status !== 404) return false
    const problem = await readProblem(response)
    if (isLogProblem(problem, 'movie-not-found')) return true
    throw await notALog({ status: 404, problem })
  }

  async function readPage(limit: number, { cursor, sort, from, to, q, tag }: ListMoviesOptions) {
    const query = new URLSearchParams({ limit: String(limit) })
    if (cursor != null) query.set('cursor', cursor)
    for (const [name, value] of Object.entries({ sort, from, to, q })) {
      if (value !== undefined) query.set(name, value)
    }
    for (const each of typeof tag === 'string' ? [tag] : (tag ?? [])) query.append('tag', each)
    const response = await call(`${base}?${query}`, 'listMovies')
    if (response.status !== 200) throw await failure(response, 'listMovies')
    const next = NEXT_LINK.exec(response.headers.get('link') ?? '')?.[1]
    const movies: unknown = await response.json().catch(() => undefined)
    if (!Array.isArray(movies)) throw await notALog({ status: 200, body: movies })
    return { movies, nextCursor: next ? new URL(next, base).searchParams.get('cursor') : null }
  }

  return {
    async addMovie(input: unknown, { idempotencyKey }: AddMovieOptions = {}): Promise<Movie> {
      const response = await call(base, 'addMovie', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey ?? newKey(),
        },
        body: JSON.stringify(input ?? null),
      })
      if (response.status !== 201) throw await failure(response, 'addMovie')
      return response.json()
    },

    async listMovies(options: ListMoviesOptions = {}): Promise<MoviePage> {
      if (options.limit !== undefined) return readPage(options.limit, options)
      // Every movie after the cursor: the pages walked here, each request a bounded one.
      const movies: Movie[] = []
      let page: MoviePage = { movies: [], nextCursor: options.cursor ?? null }
      do {
        page = await readPage(WALK_PAGE_SIZE, { ...options, cursor: page.nextCursor })
        movies.push(...page.movies)
      } while (page.nextCursor !== null)
      return { movies, nextCursor: null }
    },

    async stats({ from, to }: StatsOptions = {}): Promise<MovieStats> {
      const query = new URLSearchParams()
      if (from !== undefined) query.set('from', from)
      if (to !== undefined) query.set('to', to)
      const search = String(query) === '' ? '' : `?${query}`
      const response = await call(`${base}/stats${search}`, 'stats')
      if (response.status !== 200) throw await failure(response, 'stats')
      return response.json()
    },

    async getMovie(id: string): Promise<Movie | undefined> {
      const response = await call(`${base}/${encodeURIComponent(id)}`, 'getMovie')
      if (await movieMissing(response)) return undefined
      if (response.status !== 200) throw await failure(response, 'getMovie')
      return response.json()
    },

    async updateMovie(id: string, changes: MovieChanges, options: ChangeOptions = {}) {
      const response = await change(id, 'updateMovie', options, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify(changes ?? null),
      })
      if (await movieMissing(response)) throw new MovieNotFoundError(id)
      if (response.status !== 200) throw await failure(response, 'updateMovie')
      return response.json()
    },

    async deleteMovie(id: string, options: ChangeOptions = {}): Promise<boolean> {
      const response = await change(id, 'deleteMovie', options, { method: 'DELETE' })
      if (await movieMissing(response)) return false
      if (response.status !== 204) throw await failure(response, 'deleteMovie')
      return true
    },

    // The feed is one long answer: reconnected and resumed without end, where calls retry.
    watch: (watchOptions = {}) => {
      const { after } = watchOptions
      if (after !== undefined && typeof after !== 'string') {
        throw new TypeError(`movie-log: watch's after must be a change's id, not ${String(after)}`)
      }
      const connection: FeedConnection = {
        url: base,
        fetch: sendOptions.fetch,
        headers: options.headers,
        timeoutMs: sendOptions.timeoutMs,
      }
      // Each loop over it opens a feed of its own, as watchFeed's iterable does.
      return { [Symbol.asyncIterator]: () => feedOf(connection, watchOptions) }
    },
  }

  async function change(id: string, operation: string, options: ChangeOptions, init: RequestInit) {
    const headers = new Headers(init.headers)
    const tags = typeof options.ifMatch === 'string' ? [options.ifMatch] : options.ifMatch
    // Tags as versionOf gives them are quoted here, as HTTP writes entity tags.
    if (tags)
      headers.set(
        'if-match',
        tags.map((tag) => (/^"|^\*$/.test(tag) ? tag : `"${tag}"`)).join(', '),
      )
    const response = await call(`${base}/${encodeURIComponent(id)}`, operation, {
      ...init,
      headers,
    })
    if (response.status === 412) throw new PreconditionFailedError(id)
    return response
  }
}

// crypto.randomUUID exists only in secure contexts; getRandomValues everywhere.
function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('')
}

// The feed's reader (an SSE parser and reconnects, half the client's weight), loaded by the
// first watch: an app that never watches never loads it.
type FeedReader = typeof import('./watch')
let feedReader: Promise<FeedReader> | undefined
let loadedFeedReader: FeedReader | undefined

/**
 * A feed's changes. Until the reader is loaded, an iterator that loads it on its first call;
 * `return()` reaches the feed at once, a pending read or not, as the feed's own does.
 */
function feedOf(connection: FeedConnection, options: WatchOptions): AsyncIterator<LogChange> {
  const open = (reader: FeedReader) => reader.watchFeed(connection, options)[Symbol.asyncIterator]()
  if (loadedFeedReader) return open(loadedFeedReader)
  let feed: Promise<AsyncIterator<LogChange>> | undefined
  const opened = () => {
    feedReader ??= import('./watch')
    feed ??= feedReader.then((reader) => {
      loadedFeedReader = reader
      return open(reader)
    })
    return feed
  }
  const iterator: AsyncIterator<LogChange> = {
    next: async () => (await opened()).next(),
    return: async (value?: unknown) =>
      (await (await opened()).return?.(value)) ?? { done: true, value: undefined },
  }
  setWatchStart(iterator, async () => watchStartOf(await opened()))
  return iterator
}
