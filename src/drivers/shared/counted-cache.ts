/** Entries kept at most. 4096 movies hold about 2.5 MB, with their JSON text. */
const CAPACITY = 4096

/**
 * Values by key, good for as long as a store's changes count is the one they were read at.
 * The count only grows (Redis INCR on every edit and delete): a page that sees a newer count
 * drops every entry, and a read that saw an older one keeps nothing, so no value read before
 * a change is served after it. Bounded and without eviction: once full, the values read first
 * stay (the first pages, the most listed) and the rest die young.
 */
export interface CountedCache<T> {
  /** The count the entries were read at; '' before the first read (equal to no count). */
  readonly count: string
  /** The values of `keys` as of `seen`, a count read with them; `undefined` where unknown. */
  at(seen: string, keys: readonly string[]): (T | undefined)[]
  /** Keeps `value` if `seen` is still the cache's count, and returns it. */
  keep(seen: string, key: string, value: T): T
}

export function createCountedCache<T>(capacity = CAPACITY): CountedCache<T> {
  const values = new Map<string, T>()
  let count = ''
  const newer = (seen: string) => count === '' || Number(seen) > Number(count)
  return {
    get count() {
      return count
    },
    at(seen, keys) {
      if (newer(seen)) {
        values.clear()
        count = seen
      }
      return seen === count ? keys.map((key) => values.get(key)) : keys.map(() => undefined)
    },
    keep(seen, key, value) {
      if (seen === count && values.size < capacity) values.set(key, value)
      return value
    },
  }
}

/** Owners whose caches are kept at most, the most recently listed. */
const OWNERS = 64

/**
 * Counted caches of many owners, one count each, sharing one bound on the values they keep:
 * store-wide, so an owner's log keeps nothing of its own. The owners listed least recently
 * are forgotten past `owners`; once `capacity` values are kept, new ones are not.
 */
export interface OwnerCaches<T> {
  /** The count `owner`'s values were read at; '' when none are kept. */
  count(owner: string): string
  /** As `CountedCache.at`, for `owner`. */
  at(owner: string, seen: string, keys: readonly string[]): (T | undefined)[]
  /** As `CountedCache.keep`, for `owner`. */
  keep(owner: string, seen: string, key: string, value: T): T
}

export function createOwnerCaches<T>(capacity = CAPACITY, owners = OWNERS): OwnerCaches<T> {
  const caches = new Map<string, { count: string; values: Map<string, T> }>()
  let size = 0
  const forget = (owner: string) => {
    size -= caches.get(owner)?.values.size ?? 0
    caches.delete(owner)
  }
  return {
    count: (owner) => caches.get(owner)?.count ?? '',
    at(owner, seen, keys) {
      let cache = caches.get(owner)
      // Listed now: the most recent, last in the map's order.
      if (cache) caches.delete(owner)
      cache ??= { count: '', values: new Map() }
      caches.set(owner, cache)
      if (caches.size > owners) forget(caches.keys().next().value as string)
      if (cache.count === '' || Number(seen) > Number(cache.count)) {
        size -= cache.values.size
        cache.values.clear()
        cache.count = seen
      }
      const { values } = cache
      return seen === cache.count ? keys.map((key) => values.get(key)) : keys.map(() => undefined)
    },
    keep(owner, seen, key, value) {
      const cache = caches.get(owner)
      if (cache && seen === cache.count && size < capacity && !cache.values.has(key)) {
        cache.values.set(key, value)
        size += 1
      }
      return value
    },
  }
}
