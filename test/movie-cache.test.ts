import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
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
  it('keeps movies frozen, by the text they were read from', () => {
    const cache = createMovieCache(2)
    const kept = cache.keep('text of a', movie('a'))
    expect(Object.isFrozen(kept)).toBe(true)
    expect(cache.get('text of a')).toBe(kept)
    // An edited movie is other text: never the old version.
    expect(cache.get('edited text of a')).toBeUndefined()
  })

  it('holds at most its capacity: past it, movies are handed back frozen but not kept', () => {
    const cache = createMovieCache(2)
    for (const id of ['a', 'b', 'c']) expect(Object.isFrozen(cache.keep(id, movie(id)))).toBe(true)
    expect(cache.get('a')?.id).toBe('a')
    expect(cache.get('b')?.id).toBe('b')
    expect(cache.get('c')).toBeUndefined()
  })
})

describe('a listing from a SQL store', () => {
  it('reuses the movies it read before, and never an old version of one changed elsewhere', async () => {
    const file = join(tempFolder('movie-log-cache-'), 'movies.sqlite')
    const store = new KeyvSqlite(`sqlite://${file}`)
    const other = new KeyvSqlite(`sqlite://${file}`)
    const log = createMovieLog(store)
    const first = await log.addMovie(aMovie({ title: 'First' }))
    const second = await log.addMovie(aMovie({ title: 'Second' }))
    const listed = (await log.listMovies()).movies
    expect((await log.listMovies()).movies[0]).toBe(listed[0])
    // Edited by another process: the listing shows the new version at once.
    await createMovieLog(other).updateMovie(first.id, { title: 'Edited' })
    const { movies } = await log.listMovies()
    expect(movies.map((m) => m.title)).toEqual(['Edited', 'Second'])
    expect(movies[1]).toBe(listed[1])
    expect(movies[1]).toEqual(second)
    await Promise.all([store.disconnect(), other.disconnect()])
  })
})

const redisUrl = process.env.REDIS_URL

describeWith('REDIS_URL', 'a listing from Redis', () => {
  it('reuses the movies it read before, and never an old version of one changed elsewhere', async () => {
    const namespace = `test-${randomUUID()}`
    const keyv = await openStore(redisUrl as string, { namespace })
    const other = await openStore(redisUrl as string, { namespace })
    try {
      const log = createMovieLog(keyv)
      for (const title of ['A', 'B', 'C']) await log.addMovie(aMovie({ title }))
      const listed = (await log.listMovies()).movies
      expect((await log.listMovies()).movies[2]).toBe(listed[2])
      const elsewhere = createMovieLog(other)
      await elsewhere.updateMovie(listed[0]?.id as string, { title: 'Edited' })
      await elsewhere.deleteMovie(listed[1]?.id as string)
      const added = await elsewhere.addMovie(aMovie({ title: 'D' }))
      const { movies } = await log.listMovies()
      expect(movies.map((m) => m.title)).toEqual(['Edited', 'C', 'D'])
      expect(movies[1]).toBe(listed[2])
      expect(movies[2]).toEqual(added)
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
