// Issue 36 item 3: a page of a log that has not changed is served from a cache, checked against
// the log's version (its latest change) on every read, so a write acknowledged through one
// driver is seen by the very next read through another driver on the same store.
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { createMovieLog, StoreUnavailableError } from 'movie-log'
import { afterEach, describe, expect, it } from 'vitest'
import type { StoreDriver } from '../src/core/driver'
import { createUuidV7Generator } from '../src/core/id'
import { LogContext, type MovieLog } from '../src/core/movie-log'
import { createPageCache } from '../src/core/page-cache'
import { memory } from '../src/drivers/memory/driver'
import { openPostgresDriver } from '../src/drivers/postgres/driver'
import { openRedisDriver } from '../src/drivers/redis/driver'
import { openSqliteDriver } from '../src/drivers/sqlite/driver'
import { aMovie } from './_movies'
import { sqliteClients, sqliteUrl } from './_sqlite-clients'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()
const options = (namespace: string) => ({ namespace, connectTimeoutMs: 1000 })

/** Two drivers on one store, as two processes would open it. */
const stores: [string, (namespace: string) => Promise<StoreDriver>, boolean][] = [
  [
    'memory',
    (() => {
      const map = new Map()
      return (namespace: string) => memory(map).open(options(namespace))
    })(),
    true,
  ],
  // On a synchronous library the version itself is read again only after a commit of this
  // connection's or another's (data_version): each library, for both ways.
  ...sqliteClients.map((client): (typeof stores)[number] => [
    `SQLite (${client})`,
    (() => {
      let file: string | undefined
      return (namespace: string) => {
        file ??= join(tempFolder('movie-log-page-cache-'), 'movies.sqlite')
        return openSqliteDriver(sqliteUrl(file, client), options(namespace))
      }
    })(),
    true,
  ]),
  [
    'PostgreSQL',
    (namespace) => openPostgresDriver(process.env.POSTGRES_URL as string, options(namespace)),
    Boolean(process.env.POSTGRES_URL),
  ],
  [
    'Redis',
    (namespace) => openRedisDriver(process.env.REDIS_URL as string, options(namespace)),
    Boolean(process.env.REDIS_URL),
  ],
]

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A driver whose page reads (listAfter, listByDate) are counted. */
function counted(driver: StoreDriver): { driver: StoreDriver; reads: () => number } {
  let reads = 0
  const log = (owner: string) => {
    const inner = driver.log(owner)
    return {
      ...inner,
      listAfter: (after: string | undefined, limit: number) => {
        reads += 1
        return inner.listAfter(after, limit)
      },
      listByDate: (query: Parameters<typeof inner.listByDate>[0], limit: number) => {
        reads += 1
        return inner.listByDate(query, limit)
      },
    }
  }
  return { driver: Object.assign(Object.create(driver), { log }), reads: () => reads }
}

const logOn = (driver: StoreDriver, owner: string): MovieLog =>
  new LogContext(driver, createUuidV7Generator(), Date.now, {
    storeTimeoutMs: 5000,
    customIds: false,
  }).log(owner)

for (const [name, open, available] of stores) {
  describe.skipIf(!available)(`page cache on ${name}`, () => {
    const twoDrivers = async () => {
      const namespace = `test-page-cache-${randomUUID()}`
      const [one, other] = [await open(namespace), await open(namespace)]
      cleanups.push(async () => {
        for (const owner of ['alice', 'bob']) await one.drop(owner)
        await one.close()
        await other.close()
      })
      return { writer: counted(one), reader: counted(other) }
    }

    it('serves an unchanged page without a page query, and never an old one after a write through another driver', async () => {
      const { writer, reader } = await twoDrivers()
      const [writing, reading] = [logOn(writer.driver, 'alice'), logOn(reader.driver, 'alice')]
      const first = await writing.addMovie(aMovie({ title: 'Heat' }))
      const titles = async () =>
        (await reading.listMovies({ limit: 10 })).movies.map((movie) => movie.title)
      expect(await titles()).toEqual(['Heat'])
      const read = reader.reads()
      expect(await titles()).toEqual(['Heat'])
      expect(reader.reads()).toBe(read)
      // Each write acknowledged by the writer is seen by the reader's very next read.
      await writing.addMovie(aMovie({ title: 'Ran' }))
      expect(await titles()).toEqual(['Heat', 'Ran'])
      await writing.updateMovie(first.id, { title: 'Heat (1995)' })
      expect(await titles()).toEqual(['Heat (1995)', 'Ran'])
      await writing.deleteMovie(first.id)
      expect(await titles()).toEqual(['Ran'])
      const sorted = async () =>
        (await reading.listMovies({ limit: 10, sort: '-screenedDate' })).movies.map(
          (movie) => movie.title,
        )
      expect(await sorted()).toEqual(['Ran'])
      await writing.addMovie(aMovie({ title: 'Ikiru', screenedDate: '2025-01-01T20:00:00.000' }))
      expect(await sorted()).toEqual(['Ikiru', 'Ran'])
      // And the writer's own next read sees its write.
      const own = async () =>
        (await writing.listMovies({ limit: 10 })).movies.map((movie) => movie.title)
      expect(await own()).toEqual(['Ran', 'Ikiru'])
      await writing.addMovie(aMovie({ title: 'Ugetsu' }))
      expect(await own()).toEqual(['Ran', 'Ikiru', 'Ugetsu'])
    })

    it('keeps each owner its own pages', async () => {
      const { reader } = await twoDrivers()
      const [alice, bob] = [logOn(reader.driver, 'alice'), logOn(reader.driver, 'bob')]
      await alice.addMovie(aMovie({ title: 'Heat' }))
      await bob.addMovie(aMovie({ title: 'Ran' }))
      expect((await alice.listMovies({ limit: 5 })).movies.map((movie) => movie.title)).toEqual([
        'Heat',
      ])
      expect((await bob.listMovies({ limit: 5 })).movies.map((movie) => movie.title)).toEqual([
        'Ran',
      ])
      // A caller changing its page changes no one else's.
      const page = await alice.listMovies({ limit: 5 })
      page.movies.length = 0
      expect((await alice.listMovies({ limit: 5 })).movies).toHaveLength(1)
    })
  })
}

it('never serves one owner a page kept for another at the same version (Redis change ids of two logs can be equal)', () => {
  const pages = createPageCache()
  const movies = [Object.freeze({ ...aMovie(), id: 'a' })] as never
  pages.keep('alice', { limit: 5 }, '1-0', { movies, nextCursor: null }, pages.mark())
  expect(pages.get('bob', { limit: 5 }, '1-0')).toBeUndefined()
  expect(pages.get('alice', { limit: 5 }, '1-0')?.movies).toEqual(movies)
  expect(pages.get('alice', { limit: 5 }, '2-0')).toBeUndefined()
})

it('refuses bad options before it asks the store anything: a 400, not a 503, on a store that is down', async () => {
  const driver = await memory(new Map()).open(options('test-page-cache-refused'))
  const down = () => Promise.reject(new Error('the store must not be asked'))
  const failing = Object.assign(Object.create(driver), {
    log: (owner: string) => ({ ...driver.log(owner), latestChange: down, listAfter: down }),
  })
  const log = logOn(failing, 'alice')
  for (const [bad, path] of [
    [{ limit: 0 }, 'limit'],
    [{ limit: 5, cursor: 'forged' }, 'cursor'],
    [{ limit: 5, q: 7 }, 'q'],
  ] as const) {
    await expect(log.listMovies(bad as never)).rejects.toMatchObject({
      name: 'InvalidPageRequestError',
      issues: [expect.objectContaining({ path })],
    })
  }
  await expect(log.listMovies({ limit: 5 })).rejects.toThrow()
})

/** A caller's Map (written through by the memory driver) whose writes wait while `held`. */
class HeldMap extends Map<unknown, unknown> {
  held: Promise<never> | undefined

  override set(key: unknown, value: unknown) {
    // keyv awaits what its store's set returns: the write is in flight until this settles.
    return (this.held ?? super.set(key, value)) as this
  }
}

// Issue 55: the memory store indexes a movie, then writes it through to the caller's Map. A page
// read meanwhile holds it, and was kept under the version before the write: when the write
// failed, that version stood, and the page with a movie never stored was served from then on.
it('never keeps a page read while a write is in flight: a write that fails leaves no trace', async () => {
  const map = new HeldMap()
  const log = createMovieLog(map)
  await log.addMovie(aMovie({ title: 'Heat' }))
  const titles = async (limit = 10) => (await log.listMovies({ limit })).movies.map((m) => m.title)
  expect(await titles()).toEqual(['Heat'])
  let fail: (error: Error) => void = () => {}
  map.held = new Promise<never>((_, reject) => {
    fail = reject
  })
  const adding = log.addMovie(aMovie({ title: 'Lost' })).catch((error: unknown) => error)
  // The page kept before is served as it was; a page not kept is read from the index, which
  // holds the movie in flight (indexed already, not yet in the store).
  expect(await titles()).toEqual(['Heat'])
  expect(await titles(20)).toEqual(['Heat', 'Lost'])
  map.held = undefined
  fail(Object.assign(new Error('the disk went away'), { code: 'ECONNRESET' }))
  expect(StoreUnavailableError.is(await adding)).toBe(true)
  expect(await titles(20)).toEqual(['Heat'])
  expect(await titles()).toEqual(['Heat'])
})
