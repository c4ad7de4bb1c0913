import type Keyv from 'keyv'
import type { Movie } from '../core/movie'
import { keyvMovie, keyvRecords, keyvReplace, setOrThrow } from './records'
import { MOVIE_KEY_PREFIX, type MovieDriver, movieKey } from './types'

// Per Map and key prefix, the log's movies in id order: logs on one Map in this process share
// them. Built once from the Map's keys (it may hold movies already), then kept by the driver.
const orders = new WeakMap<Map<unknown, unknown>, Map<string, Promise<Movie[]>>>()

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
 * from the movies kept here in id order, a binary search and a slice, with no keyv calls and
 * no copies: a movie in memory changes only through its driver.
 */
export function createMemoryDriver(keyv: Keyv, map: Map<unknown, unknown>): MovieDriver {
  const prefix = mapKeyOf(keyv)(MOVIE_KEY_PREFIX)
  // Once loaded, the very array: a write after the first needs no promise to reach it.
  let loaded: Movie[] | undefined
  const movies = async (): Promise<Movie[]> => {
    let byPrefix = orders.get(map)
    if (!byPrefix) {
      byPrefix = new Map()
      orders.set(map, byPrefix)
    }
    const order = byPrefix.get(prefix) ?? read(keyv, map, prefix)
    byPrefix.set(prefix, order)
    loaded = await order
    return loaded
  }

  return {
    remote: false,
    put: async (movie) => {
      const sorted = loaded ?? (await movies())
      await setOrThrow(keyv, movieKey(movie.id), movie)
      keep(sorted, movie)
    },
    get: (id) => keyvMovie(keyv, id),
    listAfter: async (after, limit) => {
      const sorted = loaded ?? (await movies())
      const start = after === undefined ? 0 : firstAfter(sorted, after)
      return sorted.slice(start, start + limit)
    },
    replace: keyvReplace(keyv, map, async (movie) => keep(loaded ?? (await movies()), movie)),
    ...keyvRecords(keyv, map),
  }
}

/** Adds a movie in id order, or puts it in the place of the one with its id. */
function keep(sorted: Movie[], movie: Movie): void {
  const last = sorted.at(-1)
  // Ids mostly arrive in order: an append, except after a clock step.
  if (last === undefined || last.id < movie.id) {
    sorted.push(movie)
    return
  }
  const position = firstAfter(sorted, movie.id)
  // The same movie again (an idempotent add finished twice, an edit): replaced in place.
  if (sorted[position - 1]?.id === movie.id) sorted[position - 1] = movie
  else sorted.splice(position, 0, movie)
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

/**
 * The movies a Map holds already, read through keyv, in id order. A store that failed while
 * they were read is asked again next time, not remembered as failed.
 */
function read(keyv: Keyv, map: Map<unknown, unknown>, prefix: string): Promise<Movie[]> {
  const order = (async () => {
    const ids: string[] = []
    for (const key of map.keys()) {
      if (typeof key === 'string' && key.startsWith(prefix)) ids.push(key.slice(prefix.length))
    }
    const sorted: Movie[] = []
    for (const id of ids.sort()) {
      const movie = await keyvMovie(keyv, id)
      if (movie) sorted.push(movie)
    }
    return sorted
  })()
  order.catch(() => {
    const byPrefix = orders.get(map)
    if (byPrefix?.get(prefix) === order) byPrefix.delete(prefix)
  })
  return order
}

/** Index of the first movie whose id is greater than `id`. */
function firstAfter(sorted: Movie[], id: string): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((sorted[middle] as Movie).id <= id) low = middle + 1
    else high = middle
  }
  return low
}
