import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import type { StoreDriver } from '../src/core/driver'
import type { Movie } from '../src/core/movie'
import { aMovie } from './_movies'

// Names that share a prefix, or hold what a key layout might use as a separator.
const OWNERS = ['alice', 'alice2', 'alice:{x}', 'ünï cödé * }{', '']
// Owners to list: the above but the one diary's, and names whose order by code point (UTF-8
// bytes) is not JavaScript's `<` (U+E000 before U+1D4B3, which UTF-16 puts first), or that a
// lexical range or LIKE might misread.
const LISTED = [
  ...OWNERS.filter(Boolean),
  '\uE000 private',
  '𝒳 astral',
  'b c',
  '*',
  '%41',
  '(x',
  '[x',
  '-',
  '+',
  'Zed',
]
/** The oracle: by UTF-8 bytes, as a database compares them. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))

/**
 * Many owners on one store-wide driver (issue 27): each owner's log sees its own movies and
 * records only, whatever ids and keys the others use, and `drop(owner)` deletes that owner's.
 * For a driver whose `log(owner)` keeps owners apart (the store-wide drivers).
 */
export function describeOwnerSuite(
  name: string,
  openDriver: (namespace: string) => Promise<StoreDriver>,
): void {
  describe(`driver owners: ${name}`, () => {
    const opened: StoreDriver[] = []
    afterAll(async () => {
      const closing = opened.splice(0)
      const dropAll = async (driver: StoreDriver) => {
        const owners = [
          ...OWNERS,
          ...LISTED,
          'claims only',
          ...(await driver.owners().catch(() => [])),
        ]
        for (const owner of owners) await driver.drop(owner).catch(() => {})
      }
      // One at a time: drops from many connections to one SQLite file at once wait on each
      // other's locks, and sqlite3 waits inside Node's four-thread pool, where the holder's
      // COMMIT then queues behind the waiters until their busy timeouts end.
      for (const driver of closing) await dropAll(driver)
      await Promise.allSettled(closing.map((driver) => driver.close()))
    })
    const open = async () => {
      const driver = await openDriver(`test-${randomUUID()}`)
      opened.push(driver)
      return driver
    }
    const movie = (owner: string, id: string, date = '2024-05-01T20:30:00.000'): Movie =>
      Object.freeze({
        ...aMovie({ title: `${owner}'s`, screenedDate: date }),
        notes: '',
        id,
      }) as Movie

    it('keeps owners apart: the same id and key in each, never seen, changed or deleted by another', async () => {
      const driver = await open()
      const shared = randomUUID()
      for (const owner of OWNERS) {
        const log = driver.log(owner)
        expect(await log.put(movie(owner, shared))).toBe(true)
        expect(await log.put(movie(owner, randomUUID()))).toBe(true)
        expect(await log.create('claim', `${owner}'s claim`, 60_000)).toBe(true)
      }
      for (const owner of OWNERS) {
        const log = driver.log(owner)
        const everything = { descending: false, from: '0000', to: '9999' }
        const listed = await log.listAfter(undefined, Infinity)
        expect(listed.map((each) => each.title)).toEqual([`${owner}'s`, `${owner}'s`])
        // One date for all: by date is by id.
        expect(await log.listByDate(everything, Infinity)).toEqual(listed)
        expect(await log.get(shared)).toEqual(movie(owner, shared))
        expect(await log.read('claim')).toBe(`${owner}'s claim`)
        // Another owner's movie, as that owner stored it: not this owner's to change.
        const other = OWNERS.find((each) => each !== owner) as string
        const theirs = movie(other, shared)
        expect(await log.replace(theirs, { ...theirs, title: 'Taken over' })).toBe(false)
        expect(await log.remove(theirs)).toBe(false)
      }
      for (const owner of OWNERS) {
        expect(await driver.log(owner).get(shared)).toEqual(movie(owner, shared))
      }
    })

    it('drops one owner’s movies and records, and nothing of any other owner', async () => {
      const driver = await open()
      const ids = new Map(OWNERS.map((owner) => [owner, randomUUID()]))
      for (const owner of OWNERS) {
        await driver.log(owner).put(movie(owner, ids.get(owner) as string))
        await driver.log(owner).create('claim', owner, 60_000)
      }
      await driver.drop('alice')
      const alice = driver.log('alice')
      expect(await alice.listAfter(undefined, Infinity)).toEqual([])
      expect(await alice.read('claim')).toBeUndefined()
      expect(await alice.create('claim', 'again', 60_000)).toBe(true)
      for (const owner of OWNERS.filter((each) => each !== 'alice')) {
        const log = driver.log(owner)
        expect(await log.listAfter(undefined, Infinity)).toEqual([
          movie(owner, ids.get(owner) as string),
        ])
        expect(await log.read('claim')).toBe(owner)
      }
    })

    it('lists every owner with a movie once, in code-point order, a page at a time, never the one diary', async () => {
      const driver = await open()
      expect(await driver.owners()).toEqual([])
      for (const owner of [...LISTED].reverse()) {
        await driver.log(owner).put(movie(owner, randomUUID()))
        await driver.log(owner).put(movie(owner, randomUUID()))
      }
      await driver.log('').put(movie('', randomUUID()))
      // An owner with records and no movie has no diary to list.
      await driver.log('claims only').create('claim', 'x', 60_000)
      const expected = [...LISTED].sort(byBytes)
      expect(await driver.owners()).toEqual(expected)
      expect(await driver.owners(undefined, 3)).toEqual(expected.slice(0, 3))
      const paged: string[] = []
      for (let page = await driver.owners(undefined, 2); page.length > 0; ) {
        expect(page.length).toBeLessThanOrEqual(2)
        paged.push(...page)
        page = await driver.owners(page.at(-1), 2)
      }
      expect(paged).toEqual(expected)
      // After a name that is no owner: the owners after it.
      expect(await driver.owners('alice1')).toEqual(
        expected.filter((owner) => byBytes(owner, 'alice1') > 0),
      )
    })

    it('does not list a dropped owner, nor one whose movies were all removed', async () => {
      const driver = await open()
      const kept = movie('bob', randomUUID())
      for (const owner of ['alice', 'bob', 'carol']) {
        await driver.log(owner).put(owner === 'bob' ? kept : movie(owner, randomUUID()))
      }
      await driver.drop('alice')
      expect(await driver.owners()).toEqual(['bob', 'carol'])
      expect(await driver.log('bob').remove(kept)).toBe(true)
      expect(await driver.owners()).toEqual(['carol'])
      await driver.log('alice').put(movie('alice', randomUUID()))
      await driver.log('bob').put(kept)
      expect(await driver.owners()).toEqual(['alice', 'bob', 'carol'])
    })

    it('reads an expired record as absent, and lets it be claimed again', async () => {
      const driver = await open()
      const log = driver.log('alice')
      expect(await log.create('gone', 'first', -1)).toBe(true)
      expect(await log.read('gone')).toBeUndefined()
      expect(await log.create('gone', 'second', 60_000)).toBe(true)
      expect(await log.read('gone')).toBe('second')
      expect(await log.create('gone', 'third', 60_000)).toBe(false)
      await log.write('gone', 'expired', -1)
      expect(await log.read('gone')).toBeUndefined()
    })
  })
}
