import Keyv, { type KeyvOptions, type KeyvStoreAdapter } from 'keyv'
import { NamespaceConflictError, UnsupportedStoreError } from '../../core/errors'

/**
 * What `createMovieLog` accepts as a store: a Keyv (keyv 5 or 6), a keyv storage adapter, or a
 * `Map`.
 *
 * @example
 * ```ts
 * const store: MovieLogStore = new KeyvSqlite('sqlite://./data/movies.sqlite')
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: a Map of any entries is a valid keyv store
export type MovieLogStore = Keyv | KeyvStoreAdapter | Map<any, any> | KeyvLike

/**
 * The public face of a `Keyv` that movie-log uses, whichever major of keyv made it: a keyv 6
 * Keyv is accepted where this package resolved keyv 5, and the other way round.
 */
export interface KeyvLike {
  namespace?: string | undefined
  // biome-ignore lint/suspicious/noExplicitAny: keyv's own signatures differ between majors
  get(key: string): Promise<any>
  set(key: string, value: unknown, ttl?: number): Promise<boolean>
  delete(key: string | string[]): Promise<boolean>
  // biome-ignore lint/suspicious/noExplicitAny: as above
  iterator?: ((namespace?: string) => AsyncGenerator<any, void>) | undefined
  // biome-ignore lint/suspicious/noExplicitAny: as above
  on(event: string, listener: (...args: any[]) => void): unknown
  // biome-ignore lint/suspicious/noExplicitAny: as above
  off(event: string, listener: (...args: any[]) => void): unknown
  disconnect(): Promise<void>
  store: unknown
}

const DEFAULT_NAMESPACE = 'movie-log'

/**
 * Wraps a store in a Keyv that raises store failures instead of hiding them. A Keyv the caller
 * built is used as it is, namespace included, but made to throw on errors: a log that cannot
 * tell a failed write from a stored movie would lose movies. An adapter or Map gets a Keyv with
 * `namespace` (default `'movie-log'`).
 */
export function toKeyv(store: MovieLogStore | undefined, namespace: string | undefined): Keyv {
  if (isKeyv(store)) {
    if (namespace !== undefined && namespace !== store.namespace) {
      throw new NamespaceConflictError(
        `The Keyv given has the namespace '${store.namespace}' but options.namespace is '${namespace}': ` +
          'a Keyv keeps its own namespace, so set it on the Keyv or pass the adapter instead.',
      )
    }
    return checkedKeyv(store as Keyv)
  }
  // A namespace set on the adapter is the log's, never silently dropped: apps give one
  // adapter per user that way, and mixing their diaries would be the worst outcome.
  const own =
    store instanceof Map ? undefined : (store as { namespace?: unknown } | undefined)?.namespace
  if (typeof own === 'string' && own !== '') {
    if (namespace !== undefined && namespace !== own) {
      throw new NamespaceConflictError(
        `The store adapter has the namespace '${own}' but options.namespace is '${namespace}': give one of them, or the same.`,
      )
    }
    namespace = own
  }
  namespace ??= DEFAULT_NAMESPACE
  if (store && !(store instanceof Map)) claimAdapter(store, namespace)
  const given = store ?? privateMap()
  const keyv = new Keyv({
    store: given,
    namespace,
    throwOnErrors: true,
    ...movieSerialization(store),
    // Adapters that prefix keys themselves (@keyv/redis) would otherwise get it twice.
    useKeyPrefix: !(store && 'keyPrefixSeparator' in store),
  })
  storesGiven.set(keyv, given)
  return checkedKeyv(keyv)
}

// Maps movie-log made itself (no store given, or `memory()` without one): no caller holds them,
// so nothing reads them but the logs made here.
const privateMaps = new WeakSet<Map<unknown, unknown>>()

/** A new Map that only movie-log's own logs will hold. */
export function privateMap(): Map<unknown, unknown> {
  const map = new Map()
  privateMaps.add(map)
  return map
}

/** Whether `map` is one of `privateMap()`'s: no caller can read or share it. */
export function isPrivateMap(map: Map<unknown, unknown>): boolean {
  return privateMaps.has(map)
}

// The store each Keyv made here was made over. keyv 6 wraps a Map in a `KeyvMemoryAdapter` and
// an adapter made for keyv 5 in a `KeyvBridgeAdapter`, and documents neither's inside: what was
// wrapped is known here instead of asked of keyv.
const storesGiven = new WeakMap<Keyv, object>()

/**
 * The store behind a Keyv: the Map or adapter it was made over here, or else keyv's documented
 * `.store` (keyv 5: the Map or adapter itself; keyv 6: what keyv wrapped it in).
 */
export function storeOf(keyv: Keyv): unknown {
  return storesGiven.get(keyv) ?? keyv.store
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
  // keyv 5 throws on store errors with `throwOnErrors`; keyv 6 (Hookified) with
  // `throwOnEmitError` while nobody else listens for 'error', and its `set` answers false.
  const switches = keyv as unknown as { throwOnErrors?: boolean; throwOnEmitError?: boolean }
  if ('throwOnErrors' in keyv) switches.throwOnErrors = true
  if ('throwOnEmitError' in keyv) switches.throwOnEmitError = true
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
    throw new NamespaceConflictError(
      `This store adapter already serves the movie-log namespace '${claimed}'. keyv adapters keep ` +
        `one namespace each: create another adapter (same URL) for the namespace '${namespace}'.`,
    )
  }
  adapterNamespaces.set(adapter, namespace)
}

function isKeyv(store: unknown): store is KeyvLike {
  if (store instanceof Keyv) return true
  // A Keyv from another copy or major of keyv fails instanceof but has the same public shape.
  const candidate = store as Partial<KeyvLike> | null
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    !(candidate instanceof Map) &&
    'hooks' in candidate &&
    'store' in candidate &&
    typeof candidate.get === 'function' &&
    typeof candidate.set === 'function'
  )
}
