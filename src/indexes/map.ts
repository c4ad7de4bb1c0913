import Keyv from 'keyv'
import type { Movie } from '../movie'
import { MOVIE_KEY_PREFIX, type MovieIndex, movieKey } from './types'

// Per Map and key prefix, the movies' keys in order: logs on one Map in this process share it.
// Keys, not ids: the very strings read again on every listing, whose hashes V8 keeps.
const orders = new WeakMap<Map<unknown, unknown>, Map<string, KeyOrder>>()

interface KeyOrder {
  keys: string[]
  /** The id in the last key, where keys are `prefix + id`; `undefined` while there are none. */
  lastId: string | undefined
}

/**
 * A `Map` store: the keys are kept sorted in memory, so a page is a binary search and a slice.
 * Built once from the Map's keys (it may hold movies already), then kept by `put`. The keys are
 * read here, not through keyv's iterator: that one filters by whichever namespace the last
 * Keyv on the Map set, so two logs on one Map would see each other's movies.
 */
export function createMapIndex(keyv: Keyv, map: Map<unknown, unknown>): MovieIndex {
  // keyv's own prefixing, which leaves alone a key that already starts with the namespace.
  const prefix = keyv._getKeyPrefix(MOVIE_KEY_PREFIX)
  // keyv's key for a movie. It is `prefix + id`, kept as a pair of strings that are kept anyway,
  // except for a namespace that begins with `movie:`: keyv does not prefix an id that continues
  // it. keyv's own prefixing builds and copies the key, a few more strings kept per movie.
  const plainKeys = !(keyv.useKeyPrefix && keyv.namespace?.startsWith(MOVIE_KEY_PREFIX))
  const keyOf = plainKeys
    ? (id: string) => prefix + id
    : (id: string) => keyv._getKeyPrefix(movieKey(id))
  // Whether a new key sorts after every key listed. Plain keys sort as their ids do, and the ids
  // are compared: comparing the keys would copy each into one string, another string per movie.
  const sortsLast = (order: KeyOrder, id: string, key: string): boolean => {
    if (plainKeys) return order.lastId === undefined || order.lastId < id
    const last = order.keys.at(-1)
    return last === undefined || last < key
  }

  // Found or built on first use, then kept: the record is shared and only ever grows in place.
  let found: KeyOrder | undefined
  const keyOrder = (): KeyOrder => {
    if (found) return found
    let byPrefix = orders.get(map)
    if (!byPrefix) {
      byPrefix = new Map()
      orders.set(map, byPrefix)
    }
    let order = byPrefix.get(prefix)
    if (!order) {
      const keys: string[] = []
      for (const key of map.keys()) {
        if (typeof key === 'string' && key.startsWith(prefix)) keys.push(key)
      }
      keys.sort()
      order = { keys, lastId: keys.at(-1)?.slice(prefix.length) }
      byPrefix.set(prefix, order)
    }
    found = order
    return order
  }

  return {
    put: async (movie) => {
      // Built before the write: built after it, the new key would be read and then added again.
      const order = keyOrder()
      const key = keyOf(movie.id)
      // One string for the Map's key and the index's: a movie costs a single key.
      if (setsPlainly(keyv, map)) map.set(key, { value: movie, expires: undefined })
      else await keyv.set(movieKey(movie.id), movie)
      // Keys mostly arrive in order: this is an append, except after a clock step. A key already
      // listed (an idempotent add finished twice) is not listed again.
      if (sortsLast(order, movie.id, key)) {
        order.keys.push(key)
        order.lastId = movie.id
        return
      }
      const position = firstAfter(order.keys, key)
      if (order.keys[position - 1] !== key) order.keys.splice(position, 0, key)
    },
    listAfter: async (after, limit) => {
      const sorted = keyOrder().keys
      const start = after === undefined ? 0 : firstAfter(sorted, keyOf(after))
      const movies: Movie[] = []
      // Read from the Map itself: keyv's getMany turns a failed read into a missing movie.
      for (const key of sorted.slice(start, start + limit)) {
        const stored = map.get(key)
        const data = (typeof stored === 'string' ? await keyv.deserializeData(stored) : stored) as
          | { value?: Movie }
          | undefined
        if (data?.value) movies.push(data.value)
      }
      return movies
    },
  }
}

/**
 * Whether `keyv.set` would do nothing but write `{ value, expires }` into a plain `Map` under
 * the prefixed key: keyv's own `set` (this copy of keyv, not overridden), no serialiser,
 * compression, default TTL, set hooks or stats. Then the index writes the Map itself, as keyv
 * would, without keyv's hook calls, stats and promise hops. Checked on every write: a hook
 * added later is still run.
 */
function setsPlainly(keyv: Keyv, map: Map<unknown, unknown>): boolean {
  if (keyv.set !== Keyv.prototype.set || Object.getPrototypeOf(map) !== Map.prototype) {
    return false
  }
  const hooks = keyv.hooks._hookHandlers
  return (
    keyv.serialize === undefined &&
    keyv.compression === undefined &&
    keyv.ttl === undefined &&
    !keyv.stats.enabled &&
    !hooks.get('preSet')?.length &&
    !hooks.get('postSet')?.length
  )
}

/** Index of the first key greater than `key` in a sorted array. */
function firstAfter(sorted: string[], key: string): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((sorted[middle] as string) <= key) low = middle + 1
    else high = middle
  }
  return low
}
