import Keyv, { type KeyvOptions, type KeyvStoreAdapter } from 'keyv'
import { type Claims, createClaims } from './claims'
import { inject, injectable, TOKENS } from './container'
import { InvalidPageRequestError, StoreUnavailableError, UnsupportedStoreError } from './errors'
import { createMapIndex } from './indexes/map'
import { createRedisIndex, isRedisAdapter } from './indexes/redis'
import { createScanIndex } from './indexes/scan'
import { createSqlIndex, isSqlAdapter } from './indexes/sql'
import { type MovieIndex, movieKey } from './indexes/types'
import type { Movie } from './movie'
import { StoreTimeoutError } from './store-failure'

/**
 * What `createMovieLog` accepts as a store: a Keyv, a keyv storage adapter, or a `Map`.
 *
 * @example
 * ```ts
 * const store: MovieLogStore = new KeyvSqlite('sqlite://./data/movies.sqlite')
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: a Map of any entries is a valid keyv store
export type MovieLogStore = Keyv | KeyvStoreAdapter | Map<any, any>

const DEFAULT_NAMESPACE = 'movie-log'
const CURSOR_PREFIX = 'movie-log/1:'
const BASE64URL = /^[A-Za-z0-9_-]+$/

/**
 * Wraps a store in a Keyv that raises store failures instead of hiding them. A Keyv the caller
 * built is used as it is, namespace included, but with `throwOnErrors` on: a log that cannot
 * tell a failed write from a stored movie would lose movies. An adapter or Map gets a Keyv with
 * `namespace` (default `'movie-log'`).
 */
export function toKeyv(store: MovieLogStore | undefined, namespace: string | undefined): Keyv {
  if (isKeyv(store)) {
    if (namespace !== undefined && namespace !== store.namespace) {
      throw new UnsupportedStoreError(
        `The Keyv given has the namespace '${store.namespace}' but options.namespace is '${namespace}': ` +
          'a Keyv keeps its own namespace, so set it on the Keyv or pass the adapter instead.',
      )
    }
    return checkedKeyv(store)
  }
  namespace ??= DEFAULT_NAMESPACE
  if (store && !(store instanceof Map)) claimAdapter(store, namespace)
  return checkedKeyv(
    new Keyv({
      store: store ?? new Map(),
      namespace,
      throwOnErrors: true,
      ...movieSerialization(store),
      // Adapters that prefix keys themselves (@keyv/redis) would otherwise get it twice.
      useKeyPrefix: !(store && 'keyPrefixSeparator' in store),
    }),
  )
}

/**
 * How the Keyvs that movie-log makes store movies. A Map holds the (frozen) movies themselves;
 * elsewhere plain JSON, since movies are plain JSON values and keyv's default serialiser runs a
 * reviver over every string on every read (for Buffers), which costs more than the parse.
 */
function movieSerialization(store: unknown): Pick<KeyvOptions, 'serialize' | 'deserialize'> {
  if (store === undefined || store instanceof Map)
    return { serialize: undefined, deserialize: undefined }
  return { serialize: JSON.stringify, deserialize: JSON.parse }
}

function checkedKeyv(keyv: Keyv): Keyv {
  keyv.throwOnErrors = true
  if (typeof keyv.iterator !== 'function') {
    throw new UnsupportedStoreError(
      'The store cannot list its keys: its keyv adapter has no iterator(). movie-log needs one to ' +
        'list movies; a Map, @keyv/sqlite, @keyv/postgres and @keyv/redis all have it.',
    )
  }
  return keyv
}

// keyv writes its namespace onto the adapter, so one adapter cannot serve two namespaces.
const adapterNamespaces = new WeakMap<object, string>()

function claimAdapter(adapter: object, namespace: string): void {
  const claimed = adapterNamespaces.get(adapter)
  if (claimed !== undefined && claimed !== namespace) {
    throw new UnsupportedStoreError(
      `This store adapter already serves the movie-log namespace '${claimed}'. keyv adapters keep ` +
        `one namespace each: create another adapter (same URL) for the namespace '${namespace}'.`,
    )
  }
  adapterNamespaces.set(adapter, namespace)
}

function isKeyv(store: unknown): store is Keyv {
  return (
    store instanceof Keyv ||
    // A Keyv from another copy of the package fails instanceof but has the same shape.
    (typeof store === 'object' &&
      store !== null &&
      'opts' in store &&
      'hooks' in store &&
      'store' in store)
  )
}

/**
 * How movies sit in a keyv store: one key per movie, `movie:<id>`, so adds never collide, and
 * an index per kind of store that lists them in id order without reading the whole log.
 */
@injectable()
export class MovieStore {
  private readonly index: MovieIndex
  /** Idempotency claims, beside the movies, failing like every other store call. */
  readonly claims: Claims

  constructor(
    @inject(TOKENS.keyv) private readonly keyv: Keyv,
    @inject(TOKENS.storeTimeoutMs) private readonly timeoutMs: number,
  ) {
    this.index = chooseIndex(keyv)
    const claims = createClaims(keyv)
    this.claims = {
      create: (key, value, ttl) => this.guard('claim', () => claims.create(key, value, ttl)),
      get: (key) => this.guard('claim', () => claims.get(key)),
      replace: (key, value, ttl) => this.guard('claim', () => claims.replace(key, value, ttl)),
    }
  }

  put(movie: Movie): Promise<void> {
    return this.guard('set', () => this.index.put(movie))
  }

  get(id: string): Promise<Movie | undefined> {
    return this.guard('get', () => this.keyv.get<Movie>(movieKey(id)))
  }

  /** Movies with an id after `after`, in id order (the order they were added), at most `limit`. */
  listAfter(after: string | undefined, limit: number): Promise<Movie[]> {
    return this.guard('list', () => this.index.listAfter(after, limit))
  }

  // Every store call fails as StoreUnavailableError: on an error, or when it hangs past the timeout.
  private async guard<T>(operation: string, call: () => Promise<T>): Promise<T> {
    // A Map answers at once or throws: it cannot hang, so it needs no timer.
    if (this.keyv.store instanceof Map) {
      try {
        return await call()
      } catch (error) {
        throw new StoreUnavailableError(operation, error)
      }
    }
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new StoreTimeoutError(`the store did not answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      )
    })
    try {
      return await Promise.race([call(), timeout])
    } catch (error) {
      throw new StoreUnavailableError(operation, error)
    } finally {
      clearTimeout(timer)
    }
  }
}

function chooseIndex(keyv: Keyv): MovieIndex {
  const { store } = keyv
  if (store instanceof Map) return createMapIndex(keyv, store)
  if (isRedisAdapter(store) && !keyv.useKeyPrefix) return createRedisIndex(keyv, store)
  if (isSqlAdapter(store)) return createSqlIndex(keyv, store)
  return createScanIndex(keyv)
}

/** An opaque cursor that resumes a listing after the movie with this id. */
export function encodeCursor(id: string): string {
  return Buffer.from(CURSOR_PREFIX + id).toString('base64url')
}

/** The id a cursor resumes after; throws `InvalidPageRequestError` for a cursor not made here. */
export function decodeCursor(cursor: string): string {
  const decoded = BASE64URL.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : ''
  const id = decoded.startsWith(CURSOR_PREFIX) ? decoded.slice(CURSOR_PREFIX.length) : ''
  if (!id || encodeCursor(id) !== cursor) {
    throw new InvalidPageRequestError([
      { path: 'cursor', message: 'is not a cursor from this movie log (use nextCursor as given)' },
    ])
  }
  return id
}
