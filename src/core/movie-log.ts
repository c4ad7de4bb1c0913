import { createDriver, type MovieDriver, type MovieLogStore, toKeyv } from '../drivers'
import type { MovieChanges } from './changes'
import { container, inject, injectable, Lifecycle, TOKENS } from './container'
import { type ChangeOptions, deleteMovie, updateMovie } from './corrections'
import { guardDriver } from './guard'
import { type Clock, createUuidV7Generator, type IdGenerator } from './id'
import { addOnce } from './idempotency'
import { registerImportTarget } from './import-target'
import { type ListMoviesOptions, listPage, type MoviePage } from './listing'
import { type Movie, type NewMovie, parseNewMovie } from './movie'

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
   * Changes some fields of a movie (same rules as an add) and returns it as stored. Throws
   * `MovieNotFoundError` for an unknown id, `PreconditionFailedError` when `ifMatch` names a
   * version the movie no longer has.
   */
  updateMovie(id: string, changes: MovieChanges, options?: ChangeOptions): Promise<Movie>
  /** Deletes a movie; false when it was not there. `ifMatch` as for `updateMovie`. */
  deleteMovie(id: string, options?: ChangeOptions): Promise<boolean>
}

// One generator for the process, so that logs sharing a store keep their adds in order.
const processIdGenerator = createUuidV7Generator()

@injectable()
class MovieLogService implements MovieLog {
  constructor(
    @inject(TOKENS.driver) private readonly store: MovieDriver,
    @inject(TOKENS.generateId) private readonly generateId: IdGenerator,
    @inject(TOKENS.clock) private readonly clock: Clock,
  ) {}

  async addMovie(input: NewMovie, options: AddMovieOptions = {}): Promise<Movie> {
    const fields = parseNewMovie(input)
    // Frozen: a store may hand out the very object it keeps (the in-memory one does). Written
    // out field by field: every movie gets one shape, where a spread after `id` copies slowly.
    const movie: Movie = Object.freeze({
      id: this.generateId(),
      title: fields.title,
      screenedDate: fields.screenedDate,
      releaseYear: fields.releaseYear,
      imdbLink: fields.imdbLink,
      notes: fields.notes,
    })
    if (options.idempotencyKey === undefined) {
      await this.store.put(movie)
      return movie
    }
    return addOnce(this.store, options.idempotencyKey, input, movie, this.clock)
  }

  listMovies(options: ListMoviesOptions = {}): Promise<MoviePage> {
    return listPage(this.store, options)
  }

  async getMovie(id: string): Promise<Movie | undefined> {
    return this.store.get(id)
  }

  updateMovie(id: string, changes: MovieChanges, options: ChangeOptions = {}): Promise<Movie> {
    return updateMovie(this.store, id, changes, options)
  }

  deleteMovie(id: string, options: ChangeOptions = {}): Promise<boolean> {
    return deleteMovie(this.store, id, options)
  }
}

/**
 * Creates a movie log over a keyv store: a `Keyv`, any keyv storage adapter, or a `Map`.
 * Omitted, the log lives in memory. Each log has its own DI container, so logs never share state.
 *
 * @example
 * ```ts
 * import KeyvRedis from '@keyv/redis'
 * import { createMovieLog } from 'movie-log'
 *
 * const log = createMovieLog(new KeyvRedis('redis://localhost:6379'))
 * const movie = await log.addMovie({
 *   title: 'Heat',
 *   screenedDate: '2024-05-01T20:30:00.000',
 *   releaseYear: 1995,
 *   imdbLink: 'https://www.imdb.com/title/tt0113277/',
 * })
 * const { movies } = await log.listMovies()
 * ```
 */
export function createMovieLog(store?: MovieLogStore, options: MovieLogOptions = {}): MovieLog {
  const scope = container.createChildContainer()
  const generateId =
    options.generateId ??
    (options.clock ? createUuidV7Generator(options.clock) : processIdGenerator)
  // The one place a store's kind is looked at: its driver is chosen here, once.
  const driver = createDriver(toKeyv(store, options.namespace))
  scope.register(TOKENS.driver, { useValue: guardDriver(driver, options.storeTimeoutMs ?? 5000) })
  scope.register(TOKENS.generateId, { useValue: generateId })
  scope.register(TOKENS.clock, { useValue: options.clock ?? Date.now })
  scope.register(MovieLogService, MovieLogService, { lifecycle: Lifecycle.ContainerScoped })
  const log = scope.resolve(MovieLogService)
  const customIds = options.generateId !== undefined
  registerImportTarget(log, { driver: scope.resolve(TOKENS.driver), generateId, customIds })
  return log
}
