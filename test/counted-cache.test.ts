import { expect, it } from 'vitest'
import { createCountedCache, createOwnerCaches } from '../src/drivers/shared/counted-cache'

it('serves what was read at the count it holds, and nothing read before a newer one', () => {
  const cache = createCountedCache<string>()
  expect(cache.count).toBe('')
  expect(cache.at('3', ['a', 'b'])).toEqual([undefined, undefined])
  cache.keep('3', 'a', 'A at 3')
  expect(cache.at('3', ['a', 'b'])).toEqual(['A at 3', undefined])
  // A page that saw a newer count: everything read before it is dropped.
  expect(cache.at('4', ['a'])).toEqual([undefined])
  expect(cache.count).toBe('4')
  // A read that began at the older count, answering late: used by its caller, never kept.
  expect(cache.at('3', ['a'])).toEqual([undefined])
  expect(cache.keep('3', 'a', 'A at 3, late')).toBe('A at 3, late')
  expect(cache.at('4', ['a'])).toEqual([undefined])
  // Counts compare as numbers: 10 is newer than 9.
  cache.keep('4', 'a', 'A at 4')
  cache.at('9', [])
  expect(cache.at('10', ['a'])).toEqual([undefined])
  expect(cache.count).toBe('10')
})

it('keeps no more than its capacity', () => {
  const cache = createCountedCache<number>(2)
  cache.at('0', [])
  for (const key of ['a', 'b', 'c']) cache.keep('0', key, 1)
  expect(cache.at('0', ['a', 'b', 'c'])).toEqual([1, 1, undefined])
})

it('keeps each owner at its own count, and a bound on owners and values across them all', () => {
  const caches = createOwnerCaches<string>(3, 2)
  caches.at('alice', '5', [])
  caches.keep('alice', '5', 'a', 'A')
  caches.at('bob', '9', [])
  caches.keep('bob', '9', 'a', 'B')
  // One owner's count never clears another's values.
  expect(caches.at('alice', '5', ['a'])).toEqual(['A'])
  expect(caches.at('bob', '9', ['a'])).toEqual(['B'])
  expect(caches.at('alice', '6', ['a'])).toEqual([undefined])
  expect(caches.at('bob', '9', ['a'])).toEqual(['B'])
  // Three values in all, whichever owner keeps them.
  for (const key of ['x', 'y', 'z']) caches.keep('alice', '6', key, key)
  expect(caches.at('alice', '6', ['x', 'y', 'z'])).toEqual(['x', 'y', undefined])
  // A third owner forgets the one listed least recently (bob), freeing its values.
  caches.at('carol', '1', [])
  expect(caches.count('bob')).toBe('')
  caches.keep('carol', '1', 'c', 'C')
  expect(caches.at('carol', '1', ['c'])).toEqual(['C'])
})
