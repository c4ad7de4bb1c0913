import Keyv, { type KeyvOptions } from 'keyv'
import { createMovieLog, StoreUnavailableError } from 'movie-log'
import { memory as memoryStore } from 'movie-log/memory'
import { describe, expect, it } from 'vitest'
import { driverForKeyv, toKeyv } from '../src/drivers'
import { createScanDriver } from '../src/drivers/scan/driver'
import { privateMap } from '../src/drivers/shared/keyv'
import { describeOwnerSuite } from './_driver-suite-owners'
import { FlakyMap } from './_flaky-map'
import { aMovie } from './_movies'
import { describeStoreSuite, type StoreBackend } from './_store-suite'
import { describeWatchSuite } from './_store-suite-watch'

// One Map shared by every log, as one process would share it.
const shared = new Map()
const memory: StoreBackend = {
  name: 'memory (Map)',
  open: async () => shared,
  openUnreachable: async () => new FlakyMap(),
  closeAll: async () => {},
}

describeStoreSuite(memory)
describeWatchSuite(memory)

// A Map movie-log made itself (`memory()`, or no store given): its movies live in the index alone.
const own = privateMap()
const ownMemory: StoreBackend = { ...memory, name: 'memory (its own)', open: async () => own }
describeStoreSuite(ownMemory)
describeWatchSuite(ownMemory)
describeOwnerSuite('memory', async (namespace) => driverForKeyv(toKeyv(new Map(), namespace)))
describeOwnerSuite('memory (its own)', async (namespace) =>
  driverForKeyv(toKeyv(privateMap(), namespace)),
)
describeOwnerSuite('scan (a Keyv over a Map, through keyv alone)', async (namespace) =>
  createScanDriver(toKeyv(new Map(), namespace)),
)

describe('a Keyv over a Map, given by the caller', () => {
  // The index writes a Map directly only when keyv.set would do nothing more than the write.
  const plainKeyv = (options: KeyvOptions = {}) =>
    new Keyv({ store: new Map(), serialize: undefined, deserialize: undefined, ...options })

  it('still runs set hooks added after the log was made', async () => {
    const keyv = plainKeyv({ namespace: 'hooked' })
    const log = createMovieLog(keyv)
    const written: string[] = []
    keyv.hooks.addHandler('preSet', (data: { key: string }) => written.push(data.key))
    const movie = await log.addMovie(aMovie())
    expect(written).toEqual([`movie:${movie.id}`])
    expect(await log.getMovie(movie.id)).toEqual(movie)
  })

  it('finds a movie whose id continues a namespace that begins with movie:', async () => {
    // keyv leaves a key that already starts with `namespace:` as it is: the write must agree.
    let next = 0
    const generateId = () => `2024:${String(++next).padStart(4, '0')}`
    const log = createMovieLog(new Map(), { namespace: 'movie:2024', generateId })
    const movie = await log.addMovie(aMovie())
    const second = await log.addMovie(aMovie())
    expect(await log.getMovie(movie.id)).toEqual(movie)
    expect((await log.listMovies()).movies).toEqual([movie, second])
    const first = await log.listMovies({ limit: 1 })
    expect(first.movies).toEqual([movie])
    expect((await log.listMovies({ limit: 1, cursor: first.nextCursor })).movies).toEqual([second])
  })

  it('leaves a default TTL to keyv, which writes the expiry', async () => {
    const map = new Map()
    const log = createMovieLog(plainKeyv({ store: map, namespace: 'expiring', ttl: 60_000 }))
    const movie = await log.addMovie(aMovie())
    const entry = map.get(`expiring:movie:${movie.id}`) as { expires?: number }
    expect(entry.expires).toBeGreaterThan(Date.now())
  })

  it('still counts its writes when it keeps stats', async () => {
    const keyv = plainKeyv({ namespace: 'counted', stats: true })
    const log = createMovieLog(keyv)
    await log.addMovie(aMovie())
    expect(keyv.stats.sets).toBe(1)
  })

  it('writes each movie through keyv into a Map given to memory(map)', async () => {
    const map = new Map()
    const log = createMovieLog(memoryStore(map))
    const movie = await log.addMovie(aMovie())
    expect([...map.keys()]).toEqual([`movie-log:movie:${movie.id}`])
    expect(await createMovieLog(memoryStore(map)).getMovie(movie.id)).toEqual(movie)
  })

  it('holds each movie as keyv itself would have written it', async () => {
    const map = new Map()
    const log = createMovieLog(plainKeyv({ store: map, namespace: 'plain' }))
    const movie = await log.addMovie(aMovie())
    const byKeyv = new Map()
    await plainKeyv({ store: byKeyv, namespace: 'plain' }).set(`movie:${movie.id}`, movie)
    expect([...map]).toStrictEqual([...byKeyv])
  })

  it('lists the movies a Map held before the log, and later adds, in id order', async () => {
    const map = new Map()
    const earlier = plainKeyv({ store: map, namespace: 'kept' })
    // Held out of order, so the last key is not the last one the Map holds.
    for (const id of ['d', 'b']) await earlier.set(`movie:${id}`, { ...aMovie(), id })
    const ids = ['c', 'f', 'e', 'a']
    const log = createMovieLog(map, { namespace: 'kept', generateId: () => ids.shift() as string })
    for (let i = 0; i < 4; i++) await log.addMovie(aMovie())
    const { movies } = await log.listMovies()
    expect(movies.map((movie) => movie.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f'])
  })

  it('keys movies as keyv does when the namespace is itself "movie"', async () => {
    // keyv leaves a key that already starts with the namespace unprefixed.
    const log = createMovieLog(new Map(), { namespace: 'movie' })
    const movie = await log.addMovie(aMovie())
    expect(await log.getMovie(movie.id)).toEqual(movie)
    expect((await log.listMovies()).movies).toEqual([movie])
  })

  it('calls the set of a Keyv subclass that overrides it', async () => {
    let sets = 0
    class CountingKeyv extends Keyv {
      override async set(...args: Parameters<Keyv['set']>) {
        sets++
        return super.set(...args)
      }
    }
    const log = createMovieLog(
      new CountingKeyv({ store: new Map(), serialize: undefined, deserialize: undefined }),
    )
    await log.addMovie(aMovie())
    expect(sets).toBe(1)
  })

  it("leaves a Map subclass to keyv, whose 'error' event reports a failed write", async () => {
    class FullMap<K, V> extends Map<K, V> {
      override set(key: K, value: V): this {
        // A store's own failure (issue 37: a plain Error from a Map is a bug, a 500).
        if (String(key).includes('movie:'))
          throw Object.assign(new Error('the map is full'), { code: 'ENOSPC' })
        return super.set(key, value)
      }
    }
    const keyv = plainKeyv({ store: new FullMap() })
    const errors: unknown[] = []
    keyv.on('error', (error) => errors.push(error))
    await expect(createMovieLog(keyv).addMovie(aMovie())).rejects.toThrow(StoreUnavailableError)
    expect(errors).toHaveLength(1)
  })
})
