import type Keyv from 'keyv'
import { type Movie, sameMovie } from '../core/movie'
import {
  createMemoryIndex,
  drop,
  keep,
  type MemoryIndex,
  pageAfter,
  pageByDate,
} from './memory-index'
import { keyvMovie, keyvRecords, setOrThrow } from './records'
import { type BaseDriver, MOVIE_KEY_PREFIX, movieKey } from './types'

// Per Map and key prefix, the log's movies indexed: logs on one Map in this process share
// them. Built once from the Map's keys (it may hold movies already), then kept by the driver.
const indexes = new WeakMap<Map<unknown, unknown>, Map<string, Promise<MemoryIndex>>>()

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
 * A store in memory, one process's Map. Writes go through keyv; reads come from the movies
 * indexed here (by id, in id order, in date order): a page is a binary search and a slice,
 * with no keyv calls and no copies. Each change is checked and applied to the index in one
 * synchronous step, then written, so create-if-absent and compare-and-set need no lock.
 */
export function createMemoryDriver(keyv: Keyv, map: Map<unknown, unknown>): BaseDriver {
  const prefix = mapKeyOf(keyv)(MOVIE_KEY_PREFIX)
  // Once loaded, the index itself: a call after the first needs no promise to reach it.
  let loaded: MemoryIndex | undefined
  const load = async (): Promise<MemoryIndex> => {
    let byPrefix = indexes.get(map)
    if (!byPrefix) {
      byPrefix = new Map()
      indexes.set(map, byPrefix)
    }
    const index = byPrefix.get(prefix) ?? read(keyv, map, prefix)
    byPrefix.set(prefix, index)
    loaded = await index
    return loaded
  }
  // A write the store refused leaves the index as it was.
  const write = async (undo: () => void, step: () => Promise<unknown>) => {
    try {
      await step()
    } catch (error) {
      undo()
      throw error
    }
  }

  return {
    remote: false,
    put: async (movie) => {
      const index = loaded ?? (await load())
      if (index.byId.has(movie.id)) return false
      keep(index, movie)
      await write(
        () => drop(index, movie),
        () => setOrThrow(keyv, movieKey(movie.id), movie),
      )
      return true
    },
    get: async (id) => (loaded ?? (await load())).byId.get(id),
    listAfter: async (after, limit) => pageAfter(loaded ?? (await load()), after, limit),
    listByDate: async (query, limit) => pageByDate(loaded ?? (await load()), query, limit),
    replace: async (expected, next) => {
      const index = loaded ?? (await load())
      const stored = index.byId.get(next.id)
      if (!stored || !sameMovie(stored, expected)) return false
      keep(index, next)
      await write(
        () => keep(index, stored),
        () => setOrThrow(keyv, movieKey(next.id), next),
      )
      return true
    },
    remove: async (expected) => {
      const index = loaded ?? (await load())
      const stored = index.byId.get(expected.id)
      if (!stored || !sameMovie(stored, expected)) return false
      drop(index, stored)
      await write(
        () => keep(index, stored),
        async () => {
          if (!(await keyv.delete(movieKey(stored.id)))) throw new Error('the store did not delete')
        },
      )
      return true
    },
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

/**
 * The movies a Map holds already, read through keyv, in id order. A store that failed while
 * they were read is asked again next time, not remembered as failed.
 */
function read(keyv: Keyv, map: Map<unknown, unknown>, prefix: string): Promise<MemoryIndex> {
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
    return createMemoryIndex(sorted)
  })()
  order.catch(() => {
    const byPrefix = indexes.get(map)
    if (byPrefix?.get(prefix) === order) byPrefix.delete(prefix)
  })
  return order
}
