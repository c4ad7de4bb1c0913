/**
 * The composition root: the one place a store's kind is looked at and its driver chosen, and
 * where what is store-wide (driver, ids, clock) is registered, once per store.
 */
import { forgetCursorKey } from './core/cursor-key'
import type { StoreDriver } from './core/driver'
import { SOLE_OWNER } from './core/driver'
import { guarded } from './core/guard'
import { type Clock, createUuidV7Generator } from './core/id'
import { lazyStore } from './core/lazy-store'
import {
  LogContext,
  type MovieLogOptions,
  type MovieLogs,
  type ShareableMovieLog,
} from './core/movie-log'
import { checkOwner } from './core/owner'
import { registerStoreLog } from './core/records'
import { isStoreAdapter, type StoreAdapter } from './core/store-adapter'
import { type MovieLogStore, storeForKeyv, toKeyv } from './drivers'
import { classifyNodeFailure } from './drivers/shared/failures'
import { storeOfUrl } from './store-urls'

export type { StoreAdapter, StoreOpenOptions } from './core/store-adapter'
export { registerStoreOpener, type StoreOpener } from './store-urls'

/** A movie log that opened its store, and closes it; with its share link. */
export interface ClosableMovieLog extends ShareableMovieLog {
  /** Releases what the log opened (a store URL's connection); a store you passed in stays open. */
  close(): Promise<void>
}

// The one way to tell a package that is not installed, for the server and the command, which
// see the drivers only through this root.
export { missingPackageOf } from './drivers/shared/peer'

// One generator for the process, so that logs sharing a store keep their adds in order.
const processIdGenerator = createUuidV7Generator()

/**
 * Creates a movie log over a store: a driver's store (`sqlite('./data/movies.sqlite')` from
 * `movie-log/sqlite`, `d1(env.DB)` from `movie-log/d1`, and `memory`, `postgres`, `redis`); a
 * store URL (`sqlite://./movies.sqlite`, `redis://…`, `rediss://…`,
 * `redis+cluster://host:port,host:port`, `postgres://…`, `memory://`), which loads its driver on
 * first use where the runtime can (Node, Bun, Deno); or a `Keyv`, any keyv storage adapter, or a
 * `Map`. Omitted, the log lives in memory.
 *
 * @example
 * ```ts
 * import { createMovieLog } from 'movie-log'
 * import { sqlite } from 'movie-log/sqlite'
 *
 * const log = createMovieLog(sqlite('./data/movies.sqlite'))
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
  store?: MovieLogStoreInput,
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
  store?: MovieLogStoreInput,
  options: MovieLogOptions = {},
): MovieLogs {
  const context = storeContext(store, options)
  const logs: MovieLogs = {
    of: (owner) => context.log(checkOwner(owner)),
    drop: async (owner) => {
      const checked = checkOwner(owner)
      const guard = guarded(context.store, context.settings.storeTimeoutMs)
      await guard('drop', () => context.store.drop(checked))
      forgetCursorKey(context.store, checked)
    },
    owners: () => ownersOf(context.store, context.settings.storeTimeoutMs),
    close: () => context.store.close(),
  }
  registerStoreLog(logs, context.log(SOLE_OWNER))
  return logs
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

/** A store as `createMovieLog` and `createMovieLogs` take it. */
export type MovieLogStoreInput = StoreAdapter | MovieLogStore | string

/** The store-wide parts of logs on `store`, made once per store. */
function storeContext(store: MovieLogStoreInput | undefined, options: MovieLogOptions) {
  const clock: Clock = options.clock ?? Date.now
  const generateId =
    options.generateId ??
    (options.clock ? createUuidV7Generator(options.clock) : processIdGenerator)
  return new LogContext(storeDriver(store, options), generateId, clock, {
    storeTimeoutMs: options.storeTimeoutMs ?? 5000,
    customIds: options.generateId !== undefined,
  })
}

function storeDriver(store: MovieLogStoreInput | undefined, options: MovieLogOptions): StoreDriver {
  const given = typeof store === 'string' ? storeOfUrl(store) : store
  const adapter = isStoreAdapter(given)
    ? given
    : storeForKeyv(toKeyv(given, options.namespace), undefined, options.storeTimeoutMs)
  if (!isStoreAdapter(adapter)) return adapter
  const openOptions = {
    namespace: options.namespace ?? 'movie-log',
    connectTimeoutMs: options.connectTimeoutMs ?? 2000,
    storeTimeoutMs: options.storeTimeoutMs ?? 5000,
  }
  return lazyStore(
    adapter.kind,
    adapter.remote,
    () => adapter.open(openOptions),
    // Read per error: a URL's classifier is its driver's, known once the driver is loaded.
    (error) => (adapter.classifyFailure ?? classifyNodeFailure)(error),
  )
}
