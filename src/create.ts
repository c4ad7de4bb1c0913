/**
 * The composition root: the one place a store's kind is looked at and its driver chosen, and
 * where what is store-wide (driver, ids, clock) is registered, once per store.
 */
import { container, TOKENS } from './core/container'
import type { StoreDriver } from './core/driver'
import { SOLE_OWNER } from './core/driver'
import { UnsupportedStoreError } from './core/errors'
import { guarded } from './core/guard'
import { type Clock, createUuidV7Generator } from './core/id'
import { lazyStore } from './core/lazy-store'
import { LogContext, type MovieLog, type MovieLogOptions, type MovieLogs } from './core/movie-log'
import { checkOwner } from './core/owner'
import { redact } from './core/store-url'
import { driverForKeyv, type MovieLogStore, toKeyv } from './drivers'
import { classifyNodeFailure } from './drivers/failures'
import { classifyRedisFailure } from './drivers/redis-failure'
import { classifyPostgresFailure, classifySqliteFailure } from './drivers/sql-failures'

/**
 * Opens the driver for a store URL's scheme. Register one with `registerStoreOpener` to plug in
 * a store movie-log does not ship a driver for.
 *
 * @example
 * ```ts
 * registerStoreOpener({ schemes: ['mystore'], remote: true, open: (url, o) => openMyDriver(url, o) })
 * ```
 */
export interface StoreOpener {
  /** URL schemes it opens, without `://`: `['redis', 'rediss']`. */
  schemes: readonly string[]
  /** Whether its calls can hang (a store across a network): they get the store timeout. */
  remote: boolean
  open(url: string, options: StoreOpenOptions): Promise<StoreDriver>
  /**
   * Which errors of `open` are the store failing (503, retried), and why: the driver's own
   * classifier. Without it, Node's socket and file errors (`ECONNREFUSED`, `ENOSPC`, ...) are;
   * any other error is a bug (500, logged).
   */
  classifyFailure?: StoreDriver['classifyFailure']
}

/** What a store opener is told. */
export interface StoreOpenOptions {
  /** The log's key namespace (or table namespace) in the store. */
  namespace: string
  /** How long connecting may take, in ms. */
  connectTimeoutMs: number
  /** The log's bound on one store call, in ms (`storeTimeoutMs`, default 5000). */
  storeTimeoutMs?: number
}

/** A movie log that opened its store, and closes it. */
export interface ClosableMovieLog extends MovieLog {
  /** Releases what the log opened (a store URL's connection); a store you passed in stays open. */
  close(): Promise<void>
}

// The one way to tell a package that is not installed, for the server and the command, which
// see the drivers only through this root.
export { missingPackageOf } from './drivers/peer'

// One generator for the process, so that logs sharing a store keep their adds in order.
const processIdGenerator = createUuidV7Generator()

/**
 * Registers a driver for store URLs of its schemes, for every log made after.
 *
 * @example
 * ```ts
 * registerStoreOpener({ schemes: ['mystore'], remote: true, open: openMyStore })
 * createMovieLog('mystore://host/db')
 * ```
 */
export function registerStoreOpener(opener: StoreOpener): void {
  container.register(TOKENS.storeOpeners, { useValue: opener })
}

registerStoreOpener({
  schemes: ['memory'],
  remote: false,
  open: async (_url, { namespace }) => driverForKeyv(toKeyv(new Map(), namespace)),
})
// The SQL drivers load their database's client (an optional peer) only when a URL names them.
registerStoreOpener({
  schemes: ['sqlite'],
  remote: true,
  open: async (url, options) => (await import('./drivers/sqlite')).openSqliteDriver(url, options),
  classifyFailure: classifySqliteFailure,
})
registerStoreOpener({
  schemes: ['postgres', 'postgresql'],
  remote: true,
  open: async (url, options) =>
    (await import('./drivers/postgres')).openPostgresDriver(url, options),
  classifyFailure: classifyPostgresFailure,
})

registerStoreOpener({
  schemes: ['redis', 'rediss', 'redis+cluster', 'rediss+cluster'],
  remote: true,
  // Imported on first use: a log that never opens Redis never loads node-redis.
  open: async (url, options) => (await import('./drivers/redis')).openRedisDriver(url, options),
  classifyFailure: classifyRedisFailure,
})

/**
 * Creates a movie log over a store: a store URL (`sqlite://./movies.sqlite`, `redis://…`,
 * `rediss://…`, `redis+cluster://host:port,host:port`, `postgres://…`, `memory://`), wired as `movie-log serve` wires it; or a `Keyv`,
 * any keyv storage adapter, or a `Map`. Omitted, the log lives in memory.
 *
 * @example
 * ```ts
 * import { createMovieLog } from 'movie-log'
 *
 * const log = createMovieLog('sqlite://./data/movies.sqlite')
 * const movie = await log.addMovie({
 *   title: 'Heat',
 *   screenedDate: '2024-05-01T20:30:00.000',
 *   releaseYear: 1995,
 *   imdbLink: 'https://www.imdb.com/title/tt0113277/',
 * })
 * const { movies } = await log.listMovies()
 * await log.close()
 * ```
 */
export function createMovieLog(
  store?: MovieLogStore | string,
  options: MovieLogOptions = {},
): ClosableMovieLog {
  const context = storeContext(store, options)
  const log = context.log(SOLE_OWNER)
  return Object.assign(log, { close: () => context.store.close() })
}

/**
 * Creates many movie logs on one store and one connection, one per owner: each user of an app
 * gets a diary of their own, kept apart from every other whatever its name or ids. The store is
 * named as for `createMovieLog`.
 *
 * @example
 * ```ts
 * import { createMovieLogs } from 'movie-log'
 * import { toWebHandler } from 'movie-log/web'
 *
 * const logs = createMovieLogs('postgres://app@db/app')
 * const handler = toWebHandler(logs, { owner: (request) => userIdOf(request) })
 * await logs.of('alice').listMovies()
 * ```
 */
export function createMovieLogs(
  store?: MovieLogStore | string,
  options: MovieLogOptions = {},
): MovieLogs {
  const context = storeContext(store, options)
  return {
    of: (owner) => context.log(checkOwner(owner)),
    drop: async (owner) => {
      const checked = checkOwner(owner)
      const guard = guarded(context.store, context.settings.storeTimeoutMs)
      await guard('drop', () => context.store.drop(checked))
    },
    owners: () => ownersOf(context.store, context.settings.storeTimeoutMs),
    close: () => context.store.close(),
  }
}

// Owners read per call of the driver's `owners`.
const OWNERS_PAGE = 500

/** The store's owners, a page at a time, each call bounded as a log's calls are. */
async function* ownersOf(store: StoreDriver, timeoutMs: number): AsyncGenerator<string> {
  const guard = guarded(store, timeoutMs)
  let after: string | undefined
  for (;;) {
    const page = await guard('owners', () => store.owners(after, OWNERS_PAGE))
    yield* page
    if (page.length < OWNERS_PAGE) return
    after = page.at(-1)
  }
}

/** The store-wide parts of logs on `store`, registered once in a container of the store's own. */
function storeContext(store: MovieLogStore | string | undefined, options: MovieLogOptions) {
  const scope = container.createChildContainer()
  const clock: Clock = options.clock ?? Date.now
  const generateId =
    options.generateId ??
    (options.clock ? createUuidV7Generator(options.clock) : processIdGenerator)
  scope.register(TOKENS.store, { useValue: storeDriver(store, options) })
  scope.register(TOKENS.generateId, { useValue: generateId })
  scope.register(TOKENS.clock, { useValue: clock })
  scope.register(TOKENS.settings, {
    useValue: {
      storeTimeoutMs: options.storeTimeoutMs ?? 5000,
      customIds: options.generateId !== undefined,
    },
  })
  return scope.resolve(LogContext)
}

function storeDriver(store: MovieLogStore | string | undefined, options: MovieLogOptions) {
  if (typeof store !== 'string')
    return driverForKeyv(toKeyv(store, options.namespace), undefined, options.storeTimeoutMs)
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(store)?.[1]?.toLowerCase()
  const opener = container
    .resolveAll<StoreOpener>(TOKENS.storeOpeners)
    .findLast((each) => scheme !== undefined && each.schemes.includes(scheme))
  if (!opener) {
    throw new UnsupportedStoreError(
      `unknown store URL '${redact(store)}': use memory://, sqlite://PATH, redis://HOST:PORT, rediss://…, redis+cluster://HOST:PORT,HOST:PORT, or postgres://USER@HOST/DB`,
    )
  }
  const openOptions: StoreOpenOptions = {
    namespace: options.namespace ?? 'movie-log',
    connectTimeoutMs: options.connectTimeoutMs ?? 2000,
    storeTimeoutMs: options.storeTimeoutMs ?? 5000,
  }
  return lazyStore(
    scheme as string,
    opener.remote,
    () => opener.open(store, openOptions),
    opener.classifyFailure ?? classifyNodeFailure,
  )
}
