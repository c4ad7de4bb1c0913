import { expect, it } from 'vitest'
import { createOwnerCaches } from '../src/drivers/shared/counted-cache'

it('serves what was read at the count it holds, and nothing read before a newer one', () => {
  const cache = createOwnerCaches<string>()
  expect(cache.count('o')).toBe('')
  expect(cache.at('o', '3', ['a', 'b'])).toEqual([undefined, undefined])
  cache.keep('o', '3', 'a', 'A at 3')
  expect(cache.at('o', '3', ['a', 'b'])).toEqual(['A at 3', undefined])
  // A page that saw a newer count: nothing read before it is served.
  expect(cache.at('o', '4', ['a'])).toEqual([undefined])
  expect(cache.count('o')).toBe('4')
  // A read that began at the older count, answering late: used by its caller, never kept.
  expect(cache.at('o', '3', ['a'])).toEqual([undefined])
  expect(cache.keep('o', '3', 'a', 'A at 3, late')).toBe('A at 3, late')
  expect(cache.at('o', '4', ['a'])).toEqual([undefined])
  // Counts compare as numbers: 10 is newer than 9.
  cache.keep('o', '4', 'a', 'A at 4')
  cache.at('o', '9', [])
  expect(cache.at('o', '10', ['a'])).toEqual([undefined])
  expect(cache.count('o')).toBe('10')
})

it('keeps each owner at its own count, and one bound on owners and values across them all', () => {
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
  // Three values in all, whichever owner keeps them: the least recently used go first.
  for (const key of ['x', 'y', 'z']) caches.keep('alice', '6', key, key)
  expect(caches.at('alice', '6', ['x', 'y', 'z'])).toEqual(['x', 'y', 'z'])
  expect(caches.at('bob', '9', ['a'])).toEqual([undefined])
  // A third owner forgets the one listed least recently.
  caches.at('carol', '1', [])
  expect(caches.count('alice')).toBe('')
})

it('keeps caching what a long-running store reads now, and stays bounded', () => {
  const caches = createOwnerCaches<number>(100, 4)
  // Months of listings: ten thousand movies read once each, in turn.
  for (let n = 0; n < 10_000; n++) {
    caches.at('o', '1', [String(n)])
    caches.keep('o', '1', String(n), n)
  }
  // The latest are served; the first let go, so the bound holds.
  expect(caches.at('o', '1', ['9999', '9900'])).toEqual([9999, 9900])
  expect(caches.at('o', '1', ['0', '9899'])).toEqual([undefined, undefined])
})
