import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import type { LogDriver, StoreDriver } from '../src/core/driver'
import type { Movie } from '../src/core/movie'
import { aMovie } from './_movies'

/**
 * The driver conformance suite: what the core asks of every store's driver, beyond what the
 * log's own API shows today: compare-and-set on a movie (edits will need it) and
 * create-if-absent, atomic across connections.
 */
export function describeDriverSuite(
  name: string,
  openDriver: (namespace: string) => Promise<StoreDriver>,
  owner = '',
): void {
  describe(`driver conformance: ${name}`, () => {
    const opened: StoreDriver[] = []
    afterAll(async () => {
      const closing = opened.splice(0)
      // One at a time: drops from many connections to one SQLite file at once wait on each
      // other's locks, and sqlite3 waits inside Node's four-thread pool, where the holder's
      // COMMIT then queues behind the waiters until their busy timeouts end.
      for (const driver of closing) await driver.drop(owner).catch(() => {})
      await Promise.allSettled(closing.map((driver) => driver.close()))
    })

    // Two drivers on one namespace, each on a connection of its own, as two processes would be.
    const openPair = async (): Promise<[LogDriver, LogDriver]> => {
      const namespace = `test-${randomUUID()}`
      const open = async () => {
        const driver = await openDriver(namespace)
        opened.push(driver)
        return driver.log(owner)
      }
      return [await open(), await open()]
    }
    const movie = (title: string, id: string = randomUUID()): Movie =>
      Object.freeze({ ...aMovie({ title }), notes: '', id }) as Movie

    it('replaces a movie that still equals the expected one, in its place in the order', async () => {
      const [driver, other] = await openPair()
      const movies = ['A', 'B', 'C'].map((title, n) => movie(title, `id-${n}`))
      for (const each of movies) await driver.put(each)
      const edited = { ...(movies[1] as Movie), title: 'B, edited' }
      expect(await driver.replace(movies[1] as Movie, edited)).toBe(true)
      expect(await other.get(edited.id)).toEqual(edited)
      expect(await other.listAfter(undefined, Infinity)).toEqual([movies[0], edited, movies[2]])
      expect(await driver.listAfter(undefined, Infinity)).toEqual([movies[0], edited, movies[2]])
    })

    it('refuses a stale expected movie and a missing one, changing nothing', async () => {
      const [driver, other] = await openPair()
      const first = movie('First')
      await driver.put(first)
      const second = { ...first, title: 'Second' }
      expect(await other.replace(first, second)).toBe(true)
      expect(await driver.replace(first, { ...first, title: 'Stale' })).toBe(false)
      expect(await driver.get(first.id)).toEqual(second)
      const absent = movie('Absent')
      expect(await driver.replace(absent, { ...absent, title: 'Created?' })).toBe(false)
      expect(await other.get(absent.id)).toBeUndefined()
      expect(await other.listAfter(undefined, Infinity)).toEqual([second])
    })

    it('lets exactly one of 20 concurrent replaces with the same expected movie win', async () => {
      const [driver, other] = await openPair()
      const original = movie('Original')
      await driver.put(original)
      const attempts = Array.from({ length: 20 }, (_, n) => ({ ...original, title: `Edit ${n}` }))
      const won = await Promise.all(
        attempts.map((next, n) => (n % 2 ? driver : other).replace(original, next)),
      )
      expect(won.filter(Boolean)).toHaveLength(1)
      expect(await driver.get(original.id)).toEqual(attempts[won.indexOf(true)])
    })

    it('creates a record once: 20 concurrent creates of one key, one wins', async () => {
      const [driver, other] = await openPair()
      const key = randomUUID()
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, n) =>
          (n % 2 ? driver : other).create(key, `value ${n}`, 60_000),
        ),
      )
      expect(created.filter(Boolean)).toHaveLength(1)
      expect(await other.read(key)).toBe(`value ${created.indexOf(true)}`)
      await driver.write(key, 'rewritten', 60_000)
      expect(await other.read(key)).toBe('rewritten')
      expect(await other.create(key, 'again', 60_000)).toBe(false)
      expect(await driver.read(randomUUID())).toBeUndefined()
    })
  })
}
