import type { MovieChanges } from './changes'
import { type ChangeOptions, deleteMovie, updateMovie } from './corrections'
import { cursorKeyOf } from './cursor-key'
import { type LogDriver, SOLE_OWNER, type StoreDriver } from './driver'
import { guardLog } from './guard'
import type { Clock, IdGenerator } from './id'
import { addOnce } from './idempotency'
import { registerImportTarget } from './import-target'
import { checkPageRequest, type ListMoviesOptions, type MoviePage, readPage } from './listing'
import { type Movie, type NewMovie, parseNewMovie, withExtras } from './movie'
import { createPageCache, type PageCache, withWritesTold } from './page-cache'
import { makeLink, readLink, removeLink, type ShareLink, type ShareOptions } from './share'
import { createSharedWatchSources } from './shared-changes'
import { type MovieStats, readStats, type StatsOptions } from './stats'
import {
  type ChangeReader,
  type LogChange,
  type WatchOptions,
  type WatchSource,
  watchChanges,
} from './watch'

/**
 * Options of `createMovieLog`.
 *
 * @example
 * ```ts
 * createMovieLog(new KeyvRedis(url), { namespace: 'cinema-club' })
 * ```
 */
export interface MovieLogOptions {
  /**
   * Key namespace of the log inside the store. Default `'movie-log'`. A `Keyv` passed as the
   * store keeps its own namespace; giving a different one here is an error.
   */
  namespace?: string
  /**
   * Makes ids for new movies. Ids must be unique and sort (as strings) in the order they were
   * made. Default: UUIDv7 with a monotonic counter.
   */
  generateId?: IdGenerator
  /** The log's clock (ids, idempotency locks), in epoch milliseconds. Default `Date.now`. */
  clock?: Clock
  /**
   * How long one store call may take before it fails with `StoreUnavailableError`, in ms: a
   * hung store gives an error, not a hung caller. Default 5000.
   */
  storeTimeoutMs?: number
  /** For a store URL: how long connecting may take, in ms. Default 2000. */
  connectTimeoutMs?: number
}

/**
 * Options of one `addMovie`.
 *
 * @example
 * ```ts
 * await log.addMovie(input, { idempotencyKey: request.headers.get('idempotency-key') ?? undefined })
 * ```
 */
export interface AddMovieOptions {
  /**
   * Adds the movie once per key, for 24 hours, across every process on the store: a retry with
   * the same input returns the first movie. Needs create-if-absent from the store for that
   * (memory, Redis, SQLite, PostgreSQL); other keyv stores only hold it within one process.
   */
  idempotencyKey?: string
  /**
   * With `idempotencyKey`: called when the key had added its movie already, so this call added
   * nothing and returns that movie (a scrobble answers 200 rather than 201 then).
   */
  onReplay?: (movie: Movie) => void
}

/**
 * A movie log: add, list and read movies in a keyv store. Made by `createMovieLog`.
 *
 * @example
 * ```ts
 * const log: MovieLog = createMovieLog()
 * const movie = await log.addMovie(input)
 * await log.getMovie(movie.id)
 * ```
 */
export interface MovieLog {
  /**
   * Validates `input`, stores it with a new id and returns the stored movie. Checked at run
   * time too, so JavaScript callers and untyped data get a `MovieValidationError`.
   */
  addMovie(input: NewMovie, options?: AddMovieOptions): Promise<Movie>
  /**
   * Lists movies, oldest added first or by screenedDate, within a range of dates or all, all
   * at once or a page at a time.
   */
  listMovies(options?: ListMoviesOptions): Promise<MoviePage>
  /** The movie with this id, or `undefined`. */
  getMovie(id: string): Promise<Movie | undefined>
  /**
   * The diary's counts by `screenedDate` (total, by year, month, weekday, hour, release decade,
   * and the movies screened more than once), within the months `from`..`to` (`YYYY` or
   * `YYYY-MM`), from counters kept with the movies: no movie is read.
   *
   * @example
   * ```ts
   * const year = await log.stats({ from: '2024', to: '2024' })
   * ```
   */
  stats(options?: StatsOptions): Promise<MovieStats>
  /**
   * Changes some fields of a movie (same rules as an add) and returns it as stored. Throws
   * `MovieNotFoundError` for an unknown id, `PreconditionFailedError` when `ifMatch` names a
   * version the movie no longer has.
   */
  updateMovie(id: string, changes: MovieChanges, options?: ChangeOptions): Promise<Movie>
  /** Deletes a movie; false when it was not there. `ifMatch` as for `updateMovie`. */
  deleteMovie(id: string, options?: ChangeOptions): Promise<boolean>
  /**
   * The log's changes as they happen, from every process on the store: `added`, `updated`,
   * `deleted`, each with the `id` to resume after (`after`), or `reset` when the history (the
   * latest 1,000 changes) no longer reaches back: then read the list again. Runs until
   * `signal` aborts or the loop ends.
   *
   * @example
   * ```ts
   * for await (const change of log.watch({ signal })) console.log(change.type, change.id)
   * ```
   */
  watch(options?: WatchOptions): AsyncIterable<LogChange>
}

/**
 * What a log made by `createMovieLog` or `createMovieLogs().of()` can do beside the
 * `MovieLog` interface: its share link.
 *
 * @example
 * ```ts
 * const link = await logs.of('alice').share({ notes: false })
 * await logs.of('alice').unshare()
 * ```
 */
export interface ShareableMovieLog extends MovieLog {
  /** Turns the share link on, or makes a new one: the link before is revoked at once. */
  share(options?: ShareOptions): Promise<ShareLink>
  /** Turns the share link off; false when it was off already. */
  unshare(): Promise<boolean>
  /** The share link, or `undefined` when sharing is off. */
  shared(): Promise<ShareLink | undefined>
}

/**
 * Many logs on one store and one connection, one per owner. Made by `createMovieLogs`.
 *
 * @example
 * ```ts
 * const logs: MovieLogs = createMovieLogs('redis://localhost:6379')
 * await logs.of('alice').addMovie(input)
 * await logs.drop('bob')
 * ```
 */
export interface MovieLogs {
  /**
   * The owner's log: the whole `MovieLog` interface, over the shared store. Does no I/O and
   * keeps nothing, so taking it per request costs nothing that stays. Throws
   * `InvalidOwnerError` for an owner that is not 1 to 256 characters. With its share link
   * (`share`, `unshare`, `shared`).
   */
  of(owner: string): ShareableMovieLog
  /** Deletes the owner's movies and records, and nothing of any other owner. */
  drop(owner: string): Promise<void>
  /**
   * Every owner with at least one movie, each once, in code-point order, read a page at a time
   * (an owner added or dropped meanwhile may or may not be seen). Not the one diary of
   * `createMovieLog` on the same store, which has no owner.
   *
   * @example
   * ```ts
   * for await (const owner of logs.owners()) console.log(owner)
   * ```
   */
  owners(): AsyncIterable<string>
  /** Releases the store (a store URL's connection); a store you passed in stays open. */
  close(): Promise<void>
}

/** What every log on one store shares, made once per store by the composition root. */
export interface LogSettings {
  /** How long one store call may take, in ms. */
  storeTimeoutMs: number
  /** Whether ids come from the caller's generator (an import then accepts any printable id). */
  customIds: boolean
}

/**
 * The store-wide parts every log on one store shares, made once per store by the composition
 * root: the driver, the ids, the clock. `log(owner)` makes one owner's log over them.
 */
export class LogContext {
  constructor(
    readonly store: StoreDriver,
    readonly generateId: IdGenerator,
    readonly clock: Clock,
    readonly settings: LogSettings,
  ) {}

  private sharedSources?: (owner: string, log: ChangeReader) => WatchSource
  private pageCache?: PageCache
  private ownRecords?: LogDriver

  /**
   * The pages kept for every log on this store; none on a store whose change history holds
   * within one process only (the scan over a plain keyv store): another process's write would
   * not move the version a page is checked against.
   */
  pages(): PageCache | undefined {
    if (!this.store.atomic) return undefined
    this.pageCache ??= createPageCache()
    return this.pageCache
  }

  /** One owner's log: a driver view and this context, nothing opened or kept. */
  log(owner: string): ShareableMovieLog {
    return new MovieLogService(this, owner)
  }

  /** The store's own records, owned by no one (share links' lookups), bounded as a log's. */
  storeRecords(): Pick<LogDriver, 'read' | 'write'> {
    this.ownRecords ??= guardLog(
      this.store.log(SOLE_OWNER),
      this.store,
      this.settings.storeTimeoutMs,
    )
    return this.ownRecords
  }

  /** What a watch of `owner` reads, shared with every other watch of that owner on this store. */
  watchSource(owner: string, log: ChangeReader): WatchSource {
    this.sharedSources ??= createSharedWatchSources(this.store)
    return this.sharedSources(owner, log)
  }
}

class MovieLogService implements ShareableMovieLog {
  private readonly store: LogDriver

  constructor(
    private readonly context: LogContext,
    private readonly owner: string,
  ) {
    const { store, settings, generateId } = context
    const log = guardLog(store.log(owner), store, settings.storeTimeoutMs)
    const pages = context.pages()
    this.store = pages ? withWritesTold(log, pages, owner) : log
    registerImportTarget(this, { driver: this.store, generateId, customIds: settings.customIds })
  }

  async addMovie(input: NewMovie, options: AddMovieOptions = {}): Promise<Movie> {
    const fields = parseNewMovie(input)
    // Frozen: a store may hand out the very object it keeps (the in-memory one does). Written
    // out field by field: every movie gets one shape, where a spread after `id` copies slowly.
    const movie: Movie = Object.freeze(
      withExtras(
        {
          id: this.context.generateId(),
          title: fields.title,
          screenedDate: fields.screenedDate,
          releaseYear: fields.releaseYear,
          imdbLink: fields.imdbLink,
          notes: fields.notes,
        },
        fields.rating,
        fields.tags,
      ),
    )
    if (options.idempotencyKey === undefined) {
      await this.store.put(movie)
      return movie
    }
    const { clock, settings } = this.context
    const added = await addOnce(this.store, options.idempotencyKey, input, movie, clock, {
      storeTimeoutMs: settings.storeTimeoutMs,
    })
    // The movie of an earlier attempt has that attempt's id, never the one made above.
    if (added.id !== movie.id) options.onReplay?.(added)
    return added
  }

  async listMovies(options: ListMoviesOptions = {}): Promise<MoviePage> {
    // Bad options are refused before a movie is read, cache or not.
    const { store, owner } = this
    const key = () => cursorKeyOf(this.context.store, owner, store)
    const again = () => cursorKeyOf(this.context.store, owner, store, { again: true })
    const request = await checkPageRequest(options, [key, again])
    const pages = this.context.pages()
    if (!pages || options.limit === undefined) return readPage(store, request, key)
    // The version first, then the page: a page is never kept under a version newer than it.
    const mark = pages.mark()
    const version = await store.latestChange()
    // A log with no history (an older store's) has no version to check a page against.
    if (version === undefined) return readPage(store, request, key)
    const kept = pages.get(owner, options, version)
    if (kept) return kept
    return pages.keep(owner, options, version, await readPage(store, request, key), mark)
  }

  async getMovie(id: string): Promise<Movie | undefined> {
    return this.store.get(id)
  }

  stats(options: StatsOptions = {}): Promise<MovieStats> {
    return readStats(this.store, options)
  }

  updateMovie(id: string, changes: MovieChanges, options: ChangeOptions = {}): Promise<Movie> {
    return updateMovie(this.store, id, changes, options)
  }

  deleteMovie(id: string, options: ChangeOptions = {}): Promise<boolean> {
    return deleteMovie(this.store, id, options)
  }

  watch(options: WatchOptions = {}): AsyncIterable<LogChange> {
    return watchChanges(this.context.watchSource(this.owner, this.store), options)
  }

  share(options: ShareOptions = {}): Promise<ShareLink> {
    const { context } = this
    return makeLink(this.store, context.storeRecords(), this.owner, options, context.clock())
  }

  unshare(): Promise<boolean> {
    return removeLink(this.store, this.context.storeRecords())
  }

  shared(): Promise<ShareLink | undefined> {
    return readLink(this.store)
  }
}
