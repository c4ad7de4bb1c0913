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
