import type Keyv from 'keyv'
import type { Movie } from '../core/movie'
import { keyvMovie, keyvRecords, keyvReplace, setOrThrow } from './records'
import { MOVIE_KEY_PREFIX, type MovieDriver, movieKey } from './types'

/** A listed movie and the key it sits under in the Map. */
interface Entry {
  id: string
  key: string
  movie: Movie
}

// Per Map and key prefix, the log's movies in id order: logs on one Map in this process share
// it. Built once from the Map's keys (it may hold movies already), then kept by the driver.
const orders = new WeakMap<Map<unknown, unknown>, Map<string, Promise<Entry[]>>>()

/**
 * The Map behind a Keyv in memory: keyv 5 holds the Map itself as its store, keyv 6 a
 * `KeyvMemoryAdapter` whose `store` is the Map.
 */
export function memoryMap(keyv: Keyv): Map<unknown, unknown> | undefined {
  const store: unknown = keyv.store
  if (store instanceof Map) return store
  const adapter = store as { store?: unknown; getKeyPrefix?: unknown } | undefined
  if (adapter?.store instanceof Map && typeof adapter.getKeyPrefix === 'function') {
    return adapter.store
  }
  return undefined
}

/**
 * A store in memory, one process's Map. Writes and reads by id go through keyv; pages come
 * from the movies kept here in id order (a binary search and a slice), each checked to be still
 * in the Map, so a page costs no keyv calls and no copies of the movies.
 */
export function createMemoryDriver(keyv: Keyv, map: Map<unknown, unknown>): MovieDriver {
  const keyOf = mapKeyOf(keyv)
  const prefix = keyOf(MOVIE_KEY_PREFIX)

  let found: Promise<Entry[]> | undefined
  const entries = (): Promise<Entry[]> => {
    if (found) return found
    let byPrefix = orders.get(map)
    if (!byPrefix) {
      byPrefix = new Map()
      orders.set(map, byPrefix)
    }
    const orderByPrefix = byPrefix
    let order = orderByPrefix.get(prefix)
    if (!order) {
      order = load(keyv, map, prefix)
      orderByPrefix.set(prefix, order)
      // A store that failed while loading is asked again next time, not remembered as failed.
      order.catch(() => {
        if (orderByPrefix.get(prefix) === order) orderByPrefix.delete(prefix)
        found = undefined
      })
    }
    found = order
    return order
  }
  const keep = async (movie: Movie) => {
    const sorted = await entries()
    const last = sorted.at(-1)
    const entry = { id: movie.id, key: keyOf(movieKey(movie.id)), movie }
    // Ids mostly arrive in order: an append, except after a clock step.
    if (last === undefined || last.id < movie.id) sorted.push(entry)
    else {
      const position = firstAfter(sorted, movie.id)
      const before = sorted[position - 1]
      // The same movie again (an idempotent add finished twice, an edit): replaced in place.
      if (before?.id === movie.id) before.movie = movie
      else sorted.splice(position, 0, entry)
    }
  }

  return {
    remote: false,
    put: async (movie) => {
      await entries()
      await setOrThrow(keyv, movieKey(movie.id), movie)
      await keep(movie)
    },
    get: (id) => keyvMovie(keyv, id),
    listAfter: async (after, limit) => {
      const sorted = await entries()
      const movies: Movie[] = []
      // A movie removed from the Map behind the log's back is not listed.
      for (let at = after === undefined ? 0 : firstAfter(sorted, after); at < sorted.length; at++) {
        if (movies.length >= limit) break
        const entry = sorted[at] as Entry
        if (map.get(entry.key) !== undefined) movies.push(entry.movie)
      }
      return movies
    },
    // One process owns a Map: calls on one movie, serialised, cannot interleave.
    replace: keyvReplace(keyv, map, keep),
    ...keyvRecords(keyv, map),
  }
}

/**
 * The Map key keyv writes for a key: a keyv 6 adapter says it (`getKeyPrefix`); keyv 5 writes
 * `namespace:key`, leaving alone a key that already begins with `namespace:`.
 */
function mapKeyOf(keyv: Keyv): (key: string) => string {
  const adapter = keyv.store as { getKeyPrefix?: (key: string, namespace?: string) => string }
  if (typeof adapter.getKeyPrefix === 'function') {
    const { namespace } = keyv
    return (key) =>
      (adapter.getKeyPrefix as NonNullable<typeof adapter.getKeyPrefix>)(key, namespace)
  }
  const namespace = keyv.useKeyPrefix ? keyv.namespace : undefined
  if (!namespace) return (key) => key
  const start = `${namespace}:`
  return (key) => (key.startsWith(start) ? key : start + key)
}

/** The movies a Map holds already, read through keyv, in id order. */
async function load(keyv: Keyv, map: Map<unknown, unknown>, prefix: string): Promise<Entry[]> {
  const keys: string[] = []
  for (const key of map.keys()) {
    if (typeof key === 'string' && key.startsWith(prefix)) keys.push(key)
  }
  const sorted: Entry[] = []
  for (const key of keys.sort()) {
    const id = key.slice(prefix.length)
    const movie = (await keyv.get(movieKey(id))) as Movie | undefined
    if (movie) sorted.push({ id, key, movie })
  }
  return sorted
}

/** Index of the first entry whose id is greater than `id`. */
function firstAfter(sorted: Entry[], id: string): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((sorted[middle] as Entry).id <= id) low = middle + 1
    else high = middle
  }
  return low
}
