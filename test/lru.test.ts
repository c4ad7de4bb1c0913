import { expect, it } from 'vitest'
import { createLru } from '../src/core/lru'

// Issue 56: the one cache policy (core/lru.ts) of the movie, counted, page, cursor-key and
// Accept caches.
it('keeps at most its capacity, letting the least recently used go first', () => {
  const lru = createLru<string, number>(2)
  lru.set('a', 1)
  lru.set('b', 2)
  // Read now: b is the least recently used.
  expect(lru.get('a')).toBe(1)
  lru.set('c', 3)
  expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([1, undefined, 3])
  expect(lru.size).toBe(2)
  // Set again: the most recent, its value replaced.
  lru.set('a', 4)
  lru.set('d', 5)
  expect([lru.get('a'), lru.get('c'), lru.get('d')]).toEqual([4, undefined, 5])
  lru.delete('a')
  expect(lru.get('a')).toBeUndefined()
  lru.clear()
  expect(lru.size).toBe(0)
})
