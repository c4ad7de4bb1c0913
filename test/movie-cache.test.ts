import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type KeyvRedis from '@keyv/redis'
import KeyvSqlite from '@keyv/sqlite'
import { createMovieLog, type Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { openStore } from '../examples/store'
import { createMovieCache } from '../src/drivers/movie-cache'
import { moviesJson } from '../src/http/movie-json'
import { aMovie } from './_movies'
import { describeWith } from './_services'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()

const movie = (id: string): Movie => ({ id, ...aMovie(), notes: '' }) as Movie

describe('the movie cache of an index', () => {
  it('keeps movies frozen, by id', () => {
    const cache = createMovieCache(2)
    const kept = cache.keep(movie('a'))
    expect(Object.isFrozen(kept)).toBe(true)
    expect(cache.get('a')).toBe(kept)
    expect(cache.get('b')).toBeUndefined()
  })

  it('holds at most its capacity: past it, movies are handed back frozen but not kept', () => {
    const cache = createMovieCache(2)
    for (const id of ['a', 'b', 'c']) expect(Object.isFrozen(cache.keep(movie(id)))).toBe(true)
    expect(cache.get('a')?.id).toBe('a')
    expect(cache.get('b')?.id).toBe('b')
    expect(cache.get('c')).toBeUndefined()
  })
})

describe('a listing from a SQL store', () => {
  it('reuses the movies it read before, and reads the ones it has not', async () => {
    const file = join(tempFolder('movie-log-cache-'), 'movies.sqlite')
    const store = new KeyvSqlite(`sqlite://${file}`)
    const log = createMovieLog(store)
    const first = await log.addMovie(aMovie({ title: 'First' }))
    const [listed] = (await log.listMovies()).movies
    // Movies never change once added; rewriting one behind the log's back shows the reuse.
    await store.query('UPDATE keyv SET value = ? WHERE key LIKE ?', [
      JSON.stringify({ value: { ...first, title: 'Rewritten' } }),
      `%${first.id}`,
    ])
    const second = await createMovieLog(new KeyvSqlite(`sqlite://${file}`)).addMovie(
      aMovie({ title: 'Second' }),
    )
    const { movies } = await log.listMovies()
    expect(movies[0]).toBe(listed)
    expect(movies.map((m) => m.title)).toEqual(['First', 'Second'])
    expect(movies[1]).toEqual(second)
    await store.disconnect()
  })
})

const redisUrl = process.env.REDIS_URL

describeWith('REDIS_URL', 'a listing from Redis', () => {
  it('reads from Redis only the movies it has not read before', async () => {
    const namespace = `test-${randomUUID()}`
    const keyv = await openStore(redisUrl as string, { namespace })
    const other = await openStore(redisUrl as string, { namespace })
    try {
      const log = createMovieLog(keyv)
      for (const title of ['A', 'B', 'C']) await log.addMovie(aMovie({ title }))
      await log.listMovies()

      const client = await (keyv.store as KeyvRedis<unknown>).getClient()
      const mGet = client.mGet.bind(client)
      const asked: string[][] = []
      Object.assign(client, {
        mGet: (keys: string[]) => {
          asked.push(keys)
          return mGet(keys)
        },
      })

      expect((await log.listMovies()).movies.map((m) => m.title)).toEqual(['A', 'B', 'C'])
      expect(asked).toEqual([])
      const added = await createMovieLog(other).addMovie(aMovie({ title: 'D' }))
      expect((await log.listMovies()).movies.map((m) => m.title)).toEqual(['A', 'B', 'C', 'D'])
      expect(asked).toEqual([[expect.stringContaining(added.id)]])
    } finally {
      await keyv.clear()
      await Promise.allSettled([keyv.disconnect(), other.disconnect()])
    }
  })
})

describe('JSON text of listings', () => {
  it('is JSON.stringify of the movies, whether they are frozen (text kept) or not', () => {
    const movies = [Object.freeze(movie('a')), movie('b'), Object.freeze(movie('c'))]
    for (let round = 0; round < 2; round++) {
      expect(moviesJson(movies)).toBe(JSON.stringify(movies))
      expect(moviesJson([])).toBe('[]')
    }
  })
})
