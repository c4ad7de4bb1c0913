import type Keyv from 'keyv'
import { type Movie, sameMovie } from '../core/movie'
import { keyvCodec } from './keyv'
import { createMovieCache } from './movie-cache'
import { MOVIE_KEY_PREFIX, type MovieDriver, movieKey, RECORD_KEY_PREFIX } from './types'

// The few node-redis calls used here, so the core needs no Redis package of its own.
interface RedisClient {
  multi(): RedisMulti
  zRange(
    key: string,
    min: string,
    max: string,
    options?: { BY: 'LEX'; LIMIT?: { offset: number; count: number } },
  ): Promise<string[]>
  mGet(keys: string[]): Promise<(string | null)[]>
  get(key: string): Promise<string | null>
  set(key: string, value: string, options?: { NX?: boolean; PX?: number }): Promise<unknown>
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
}
interface RedisMulti {
  set(key: string, value: string): RedisMulti
  zAdd(key: string, member: { score: number; value: string }): RedisMulti
  exec(): Promise<unknown>
}

/** The parts of a @keyv/redis adapter this index relies on. */
export interface RedisAdapter {
  namespace?: string
  isCluster(): boolean
  getClient(): Promise<RedisClient>
  createKeyPrefix(key: string, namespace?: string): string
  iterator(namespace?: string): AsyncGenerator<[string, unknown]>
}

export function isRedisAdapter(store: unknown): store is RedisAdapter {
  const candidate = store as Partial<RedisAdapter> | null
  return (
    typeof candidate?.getClient === 'function' &&
    typeof candidate.createKeyPrefix === 'function' &&
    typeof candidate.isCluster === 'function' &&
    !candidate.isCluster()
  )
}

// Sets KEYS[1] to ARGV[2] only while it still holds ARGV[1]: one step, so one writer wins.
const COMPARE_AND_SET = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2])
  return 1
end
return 0`

/**
 * A Redis store: a sorted set of ids next to the movies, written with each movie in one
 * MULTI, so concurrent adds from many processes are all listed; a page is one ZRANGE BYLEX and
 * one MGET. Create-if-absent is SET NX, compare-and-set a script. (A Redis Cluster would split
 * the keys across slots: it uses the scan driver.)
 */
export function createRedisDriver(keyv: Keyv, adapter: RedisAdapter): MovieDriver {
  const key = (name: string) => adapter.createKeyPrefix(name, adapter.namespace)
  const indexKey = key('movie-index')
  const readyKey = key('movie-index-ready')
  const cache = createMovieCache()
  let ready = false

  // Movies stored before this index existed (or by a scan-index writer) are added once.
  async function ensureIndex(client: RedisClient): Promise<void> {
    if (ready || (await client.get(readyKey)) !== null) {
      ready = true
      return
    }
    for await (const [name] of adapter.iterator(adapter.namespace)) {
      if (!name.startsWith(MOVIE_KEY_PREFIX)) continue
      await client
        .multi()
        .zAdd(indexKey, { score: 0, value: name.slice(MOVIE_KEY_PREFIX.length) })
        .exec()
    }
    await client.set(readyKey, '1')
    ready = true
  }

  const client = () => adapter.getClient()
  const codec = keyvCodec(keyv)
  const record = (name: string) => key(RECORD_KEY_PREFIX + name)

  return {
    remote: true,
    get: async (id) => {
      const value = await (await client()).get(key(movieKey(id)))
      if (value === null) return undefined
      return codec.decode(value)
    },
    replace: async (expected, next) => {
      const redis = await client()
      const stored = await redis.get(key(movieKey(next.id)))
      if (stored === null) return false
      const movie = await codec.decode(stored)
      if (!movie || !sameMovie(movie, expected)) return false
      const keys = [key(movieKey(next.id))]
      const swapped = await redis.eval(COMPARE_AND_SET, {
        keys,
        arguments: [stored, await codec.encode(next)],
      })
      return swapped === 1
    },
    create: async (name, value, ttlMs) =>
      (await (await client()).set(record(name), value, { NX: true, PX: ttlMs })) === 'OK',
    read: async (name) => (await (await client()).get(record(name))) ?? undefined,
    write: async (name, value, ttlMs) => {
      await (await client()).set(record(name), value, { PX: ttlMs })
    },
    put: async (movie) => {
      const client = await adapter.getClient()
      await ensureIndex(client)
      const value = await codec.encode(movie)
      await client
        .multi()
        .set(key(movieKey(movie.id)), value)
        .zAdd(indexKey, { score: 0, value: movie.id })
        .exec()
    },
    listAfter: async (after, limit) => {
      const client = await adapter.getClient()
      await ensureIndex(client)
      const window = Number.isFinite(limit) ? { LIMIT: { offset: 0, count: limit } } : {}
      const ids = await client.zRange(indexKey, after === undefined ? '-' : `(${after}`, '+', {
        BY: 'LEX',
        ...window,
      })
      // Movies read before come from the cache: often the page is one round trip, not two.
      const found = ids.map((id) => cache.get(id))
      const missing = ids.filter((_, index) => found[index] === undefined)
      const values =
        missing.length > 0 ? await client.mGet(missing.map((id) => key(movieKey(id)))) : []
      const read = new Map<string, Movie>()
      for (const value of values) {
        if (value === null) continue
        const movie = await codec.decode(value)
        if (movie) read.set(movie.id, cache.keep(movie))
      }
      const movies: Movie[] = []
      for (const [index, id] of ids.entries()) {
        const movie = found[index] ?? read.get(id)
        if (movie) movies.push(movie)
      }
      return movies
    },
  }
}
