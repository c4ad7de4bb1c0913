import type Keyv from 'keyv'
import { type Movie, sameMovie } from '../core/movie'
import { createCountedCache } from './counted-cache'
import { keyvCodec } from './keyv'
import { createMovieCache } from './movie-cache'
import { redisIndexes } from './redis-indexes'
import { PAGE, PUT, REMOVE, REPLACE } from './redis-scripts'
import {
  type BaseDriver,
  type DateQuery,
  MOVIE_KEY_PREFIX,
  movieKey,
  RECORD_KEY_PREFIX,
} from './types'

// The few node-redis calls used here, so the core needs no Redis package of its own.
interface RedisClient {
  get(key: string): Promise<string | null>
  mGet(keys: string[]): Promise<(string | null)[]>
  set(key: string, value: string, options?: { NX?: boolean; PX?: number }): Promise<unknown>
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
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

// Most members a page script reads at once (Lua's unpack has a limit of its own).
const SCRIPT_PAGE = 1000
// A date member: the 23-character screenedDate, '|', the id (from character 25).
const dateMember = (movie: Pick<Movie, 'id' | 'screenedDate'>) =>
  `${movie.screenedDate}|${movie.id}`
// '}' follows '|': below it are all members of dates up to and including this one.
const throughDate = (date: string) => `(${date}}`

/**
 * A Redis store: two sorted sets next to the movies, of ids (the order added) and of
 * `screenedDate|id` (the date order), both by lexical order. Scripts change a movie and its
 * index entries in one step, so concurrent writers from many processes never disagree; a page
 * is one script: its ZRANGE, and its MGET only when an edit or delete since the last page may
 * have left this process's movies old. Create-if-absent of records is SET NX. (A Redis Cluster
 * would split the keys across slots: it uses the scan driver.)
 */
export function createRedisDriver(keyv: Keyv, adapter: RedisAdapter): BaseDriver {
  const key = (name: string) => adapter.createKeyPrefix(name, adapter.namespace)
  const ids = key('movie-index')
  const dates = key('movie-date-index')
  const moviePrefix = key(MOVIE_KEY_PREFIX)
  const changes = key('movie-changes')
  // By id while no edit or delete happened; by stored text across them, so the movies an edit
  // elsewhere did not touch are still the objects (and JSON texts) this process has.
  const cache = createCountedCache<Movie>()
  const texts = createMovieCache()
  const codec = keyvCodec(keyv)
  const client = () => adapter.getClient()
  const record = (name: string) => key(RECORD_KEY_PREFIX + name)
  const indexed = redisIndexes(adapter, { ids, dates }, (value) => codec.decode(value))

  const run = async (script: string, keys: string[], args: string[]) =>
    (await client()).eval(script, { keys, arguments: args })

  /** The stored text of a movie and the movie, when it still equals `expected`. */
  const current = async (expected: Movie) => {
    const stored = await (await client()).get(key(movieKey(expected.id)))
    const movie = stored === null ? undefined : await codec.decode(stored)
    return stored !== null && movie && sameMovie(movie, expected) ? stored : undefined
  }

  async function page(index: string, start: string, stop: string, limit: number, rev: boolean) {
    await indexed()
    const idAt = index === dates ? 25 : 1
    const movies: Movie[] = []
    while (movies.length < limit) {
      const count = Math.min(limit - movies.length, SCRIPT_PAGE)
      const args = [start, stop, String(count), rev ? '1' : '0', moviePrefix, String(idAt)]
      const [members, seen, values] = (await run(
        PAGE,
        [index, changes],
        [...args, cache.count],
      )) as [string[], string, (string | null)[] | undefined]
      const movieIds = members.map((member) => member.slice(idAt - 1))
      const found = cache.at(seen, movieIds)
      // The texts came with the page when the cache was older; else read only those it lacks.
      const unknown = values ? movieIds.keys() : found.flatMap((movie, at) => (movie ? [] : [at]))
      const positions = [...unknown]
      const read =
        values ??
        (positions.length === 0
          ? []
          : await (await client()).mGet(positions.map((at) => moviePrefix + movieIds[at])))
      for (const [at, text] of read.entries()) {
        const movie = text === null ? undefined : (texts.get(text) ?? (await parse(text)))
        if (movie) found[positions[at] as number] = cache.keep(seen, movie.id, movie)
      }
      for (const [position, movie] of found.entries()) {
        // A member left by an older index build, or a movie gone since: skipped.
        const member = members[position] as string
        if (movie && (index === ids ? movie.id : dateMember(movie)) === member) movies.push(movie)
      }
      if (members.length < count) break
      start = `(${members.at(-1)}`
    }
    return movies
  }

  const parse = async (text: string) => {
    const movie = await codec.decode(text)
    return movie && texts.keep(text, movie)
  }

  return {
    remote: true,
    get: async (id) => {
      const value = await (await client()).get(key(movieKey(id)))
      return value === null ? undefined : codec.decode(value)
    },
    put: async (movie) => {
      await indexed()
      const keys = [key(movieKey(movie.id)), ids, dates]
      return (await run(PUT, keys, [await codec.encode(movie), movie.id, dateMember(movie)])) === 1
    },
    replace: async (expected, next) => {
      const stored = await current(expected)
      if (stored === undefined) return false
      const args = [stored, await codec.encode(next), dateMember(expected), dateMember(next)]
      return (await run(REPLACE, [key(movieKey(next.id)), dates, changes], args)) === 1
    },
    remove: async (expected) => {
      const stored = await current(expected)
      if (stored === undefined) return false
      const keys = [key(movieKey(expected.id)), ids, dates, changes]
      return (await run(REMOVE, keys, [stored, expected.id, dateMember(expected)])) === 1
    },
    listAfter: (after, limit) =>
      page(ids, after === undefined ? '-' : `(${after}`, '+', limit, false),
    listByDate: (query: DateQuery, limit) => {
      const resume =
        query.after && `(${dateMember({ screenedDate: query.after.date, id: query.after.id })}`
      return query.descending
        ? page(dates, resume ?? throughDate(query.to), `[${query.from}`, limit, true)
        : page(dates, resume ?? `[${query.from}`, throughDate(query.to), limit, false)
    },
    create: async (name, value, ttlMs) =>
      (await (await client()).set(record(name), value, { NX: true, PX: ttlMs })) === 'OK',
    read: async (name) => (await (await client()).get(record(name))) ?? undefined,
    write: async (name, value, ttlMs) => {
      await (await client()).set(record(name), value, { PX: ttlMs })
    },
  }
}
