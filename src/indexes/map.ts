import type Keyv from 'keyv'
import type { Movie } from '../movie'
import { MOVIE_KEY_PREFIX, type MovieIndex, movieKey } from './types'

// Per Map and key prefix, the ids in order: logs on one Map in this process share it.
const orders = new WeakMap<Map<unknown, unknown>, Map<string, string[]>>()

/**
 * A `Map` store: the ids are kept sorted in memory, so a page is a binary search and a slice.
 * Built once from the Map's keys (it may hold movies already), then kept by `put`. The keys are
 * read here, not through keyv's iterator: that one filters by whichever namespace the last
 * Keyv on the Map set, so two logs on one Map would see each other's movies.
 */
export function createMapIndex(keyv: Keyv, map: Map<unknown, unknown>): MovieIndex {
  const { namespace, useKeyPrefix } = keyv
  const prefix = (useKeyPrefix && namespace ? `${namespace}:` : '') + MOVIE_KEY_PREFIX

  const ids = (): string[] => {
    let byPrefix = orders.get(map)
    if (!byPrefix) {
      byPrefix = new Map()
      orders.set(map, byPrefix)
    }
    let sorted = byPrefix.get(prefix)
    if (!sorted) {
      sorted = []
      for (const key of map.keys()) {
        if (typeof key === 'string' && key.startsWith(prefix)) sorted.push(key.slice(prefix.length))
      }
      byPrefix.set(prefix, sorted.sort())
    }
    return sorted
  }

  return {
    put: async (movie) => {
      // Built before the write: built after it, the new key would be read and then added again.
      const sorted = ids()
      await keyv.set(movieKey(movie.id), movie)
      // Ids mostly arrive in order: this is an append, except after a clock step. An id already
      // listed (an idempotent add finished twice) is not listed again.
      const position = firstAfter(sorted, movie.id)
      if (sorted[position - 1] !== movie.id) sorted.splice(position, 0, movie.id)
    },
    listAfter: async (after, limit) => {
      const sorted = ids()
      const start = after === undefined ? 0 : firstAfter(sorted, after)
      const movies: Movie[] = []
      // Read from the Map itself: keyv's getMany turns a failed read into a missing movie.
      for (const id of sorted.slice(start, start + limit)) {
        const stored = map.get(prefix + id)
        const data = (typeof stored === 'string' ? await keyv.deserializeData(stored) : stored) as
          | { value?: Movie }
          | undefined
        if (data?.value) movies.push(data.value)
      }
      return movies
    },
  }
}

/** Index of the first id greater than `id` in a sorted array. */
function firstAfter(sorted: string[], id: string): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((sorted[middle] as string) <= id) low = middle + 1
    else high = middle
  }
  return low
}
