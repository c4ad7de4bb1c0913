/**
 * The one cache policy of movie-log: at most `capacity` entries, the least recently used let go
 * first. A cache that keeps its first entries and takes no more once full stops caching on a
 * long-running server (its recent movies are the ones asked for); one that lets go the oldest
 * entry, used or not, drops the pages read all the time. A `Map` keeps its keys in the order
 * set, so a read sets its key again, last, and the first key is the least recently used.
 *
 * What a cache is keyed by says when an entry is stale (a movie's stored text, a count or
 * version in the key): a stale entry is never read again, and ages out like any other.
 * @example
 * const pages = createLru<string, MoviePage>(256)
 * pages.set(key, page)
 * pages.get(key) // page, now the most recently used
 */
export interface Lru<K, V> {
  /** The value of `key`, now the most recently used; `undefined` if not kept. */
  get(key: K): V | undefined
  /** Keeps `value`, letting the least recently used entry go when past the capacity. */
  set(key: K, value: V): void
  delete(key: K): void
  clear(): void
  readonly size: number
}

export function createLru<K, V>(capacity: number): Lru<K, V> {
  const entries = new Map<K, V>()
  return {
    get(key) {
      const value = entries.get(key)
      if (value === undefined) return undefined
      entries.delete(key)
      entries.set(key, value)
      return value
    },
    set(key, value) {
      entries.delete(key)
      entries.set(key, value)
      if (entries.size > capacity) entries.delete(entries.keys().next().value as K)
    },
    delete: (key) => void entries.delete(key),
    clear: () => entries.clear(),
    get size() {
      return entries.size
    },
  }
}
