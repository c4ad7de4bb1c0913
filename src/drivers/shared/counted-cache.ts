import { createLru } from '../../core/lru'

/** Values kept at most, across owners. 4096 movies hold about 2.5 MB, with their JSON text. */
const CAPACITY = 4096

/** Owners whose counts are kept at most, the most recently listed. */
const OWNERS = 64

/**
 * Values by owner and key, each good for as long as its owner's changes count is the one it was
 * read at. The count only grows (Redis INCR on every edit and delete): a page that sees a newer
 * count moves the owner to it, and a read that saw an older one keeps nothing, so no value read
 * before a change is served after it. Store-wide, so an owner's log keeps nothing of its own.
 * One bound on the values of all owners, by core/lru.ts: the least recently used go, values of
 * an older count among them (never read again, they age out), so a long-running store keeps
 * caching what is listed now.
 * @example
 * const caches = createOwnerCaches<Movie>()
 * const [cached] = caches.at(owner, count, [id])
 * const movie = cached ?? caches.keep(owner, count, id, await read(id))
 */
export interface OwnerCaches<T> {
  /** The count `owner`'s values were read at; '' when none is kept. */
  count(owner: string): string
  /** The values of `keys` as of `seen`, a count read with them; `undefined` where unknown. */
  at(owner: string, seen: string, keys: readonly string[]): (T | undefined)[]
  /** Keeps `value` if `seen` is still the owner's count, and returns it. */
  keep(owner: string, seen: string, key: string, value: T): T
}

export function createOwnerCaches<T>(capacity = CAPACITY, owners = OWNERS): OwnerCaches<T> {
  const counts = createLru<string, string>(owners)
  const values = createLru<string, T>(capacity)
  // One key per owner, count and key: the count is digits, the owner's length says where it
  // ends, so no two triples share a key.
  const keyOf = (owner: string, count: string, key: string) =>
    `${count}:${owner.length}:${owner}${key}`
  return {
    count: (owner) => counts.get(owner) ?? '',
    at(owner, seen, keys) {
      const count = counts.get(owner)
      if (count === undefined || Number(seen) > Number(count)) counts.set(owner, seen)
      else if (seen !== count) return keys.map(() => undefined)
      return keys.map((key) => values.get(keyOf(owner, seen, key)))
    },
    keep(owner, seen, key, value) {
      if (counts.get(owner) === seen) values.set(keyOf(owner, seen, key), value)
      return value
    },
  }
}
