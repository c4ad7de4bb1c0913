import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { createMovieLog, type ListMoviesOptions, type Movie, type MovieLog } from 'movie-log'
import { describe, expect, it, vi } from 'vitest'
import { SOLE_OWNER } from '../src/core/driver'
import { openRedisDriver } from '../src/drivers/redis/driver'
import { createMovieCache } from '../src/drivers/shared/movie-cache'
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

/** Every movie of a walk through pages of 2, by id. */
async function walk(log: MovieLog, options: ListMoviesOptions): Promise<Map<string, Movie>> {
  const seen = new Map<string, Movie>()
  let cursor: string | null = null
  do {
    const page = await log.listMovies({ ...options, limit: 2, cursor })
    for (const movie of page.movies) seen.set(movie.id, movie)
    cursor = page.nextCursor
  } while (cursor)
  return seen
}

/**
 * A store's movie cache seen through the public API: walking the pages again, in any sort,
 * gives the very objects read before (none parsed again), but a movie edited by another
 * process is read anew. Without the cache every walk makes new objects.
 */
async function expectPagesReuseMovies(log: MovieLog, elsewhere: MovieLog): Promise<void> {
  for (let day = 1; day <= 5; day++) {
    await log.addMovie(
      aMovie({ title: `Day ${day}`, screenedDate: `2024-03-0${6 - day}T20:00:00.000` }),
    )
  }
  const sorts: ListMoviesOptions[] = [
    {},
    { sort: 'screenedDate' },
    { sort: '-screenedDate', from: '2024' },
  ]
  const before = await walk(log, {})
  for (const options of sorts) {
    const again = await walk(log, options)
    expect([...again.keys()].sort(), JSON.stringify(options)).toEqual([...before.keys()].sort())
    for (const [id, movie] of again) expect(movie, JSON.stringify(options)).toBe(before.get(id))
  }
  const [editedId] = [...before.keys()]
  await elsewhere.updateMovie(editedId as string, { title: 'Edited elsewhere' })
  for (const options of sorts) {
    for (const [id, movie] of await walk(log, options)) {
      if (id === editedId) expect(movie.title).toBe('Edited elsewhere')
      else expect(movie, JSON.stringify(options)).toBe(before.get(id))
    }
  }
}

describe('a listing from a SQL store', () => {
  it('gives the same movie objects on every page walk, in every sort, but one edited elsewhere', async () => {
    const file = join(tempFolder('movie-log-cache-'), 'movies.sqlite')
    const [log, other] = [createMovieLog(`sqlite://${file}`), createMovieLog(`sqlite://${file}`)]
    try {
      await expectPagesReuseMovies(log, other)
    } finally {
      await Promise.all([log.close(), other.close()])
    }
  })

  it('reuses the movies it read before, and never an old version of one changed elsewhere', async () => {
    const file = join(tempFolder('movie-log-cache-'), 'movies.sqlite')
    const log = createMovieLog(`sqlite://${file}`)
    const other = createMovieLog(`sqlite://${file}`)
    const first = await log.addMovie(aMovie({ title: 'First' }))
    const second = await log.addMovie(aMovie({ title: 'Second' }))
    const listed = (await log.listMovies()).movies
    expect((await log.listMovies()).movies[0]).toBe(listed[0])
    // Edited by another process: the listing shows the new version at once.
    await other.updateMovie(first.id, { title: 'Edited' })
    const { movies } = await log.listMovies()
    expect(movies.map((m) => m.title)).toEqual(['Edited', 'Second'])
    expect(movies[1]).toBe(listed[1])
    expect(movies[1]).toEqual(second)
    await Promise.all([log.close(), other.close()])
  })
})

const redisUrl = process.env.REDIS_URL

/** Deletes what a test wrote under `namespace` on the shared Redis. */
async function dropRedis(namespace: string) {
  const driver = await openRedisDriver(redisUrl as string, { namespace, connectTimeoutMs: 1000 })
  await driver.drop(SOLE_OWNER).finally(() => driver.close())
}

describeWith('REDIS_URL', 'a listing from Redis', () => {
  it('gives the same movie objects on every page walk, in every sort, but one edited elsewhere', async () => {
    const namespace = `test-${randomUUID()}`
    const log = createMovieLog(redisUrl as string, { namespace })
    const other = createMovieLog(redisUrl as string, { namespace })
    try {
      await expectPagesReuseMovies(log, other)
    } finally {
      await dropRedis(namespace)
      await Promise.allSettled([log.close(), other.close()])
    }
  })

  it('reuses the movies it read before, and never an old version of one changed elsewhere', async () => {
    const namespace = `test-${randomUUID()}`
    const log = createMovieLog(redisUrl as string, { namespace })
    const other = createMovieLog(redisUrl as string, { namespace })
    try {
      for (const title of ['A', 'B', 'C']) await log.addMovie(aMovie({ title }))
      const listed = (await log.listMovies()).movies
      expect((await log.listMovies()).movies[2]).toBe(listed[2])
      const elsewhere = other
      await elsewhere.updateMovie(listed[0]?.id as string, { title: 'Edited' })
      await elsewhere.deleteMovie(listed[1]?.id as string)
      const added = await elsewhere.addMovie(aMovie({ title: 'D' }))
      const { movies } = await log.listMovies()
      expect(movies.map((m) => m.title)).toEqual(['Edited', 'C', 'D'])
      expect(movies[1]).toBe(listed[2])
      expect(movies[2]).toEqual(added)
    } finally {
      await dropRedis(namespace)
      await Promise.allSettled([log.close(), other.close()])
    }
  })
})

describe('JSON text of listings', () => {
  it('is JSON.stringify of the movies, whether they are frozen (text kept) or not', () => {
    const movies = [Object.freeze(movie('a')), movie('b'), Object.freeze(movie('c'))]
    const expected = JSON.stringify(movies)
    const stringify = vi.spyOn(JSON, 'stringify')
    try {
      // First listing: every movie written once.
      expect(moviesJson(movies)).toBe(expected)
      expect(stringify).toHaveBeenCalledTimes(3)
      // Again: the frozen movies' texts are kept; only the one that may change is written.
      stringify.mockClear()
      expect(moviesJson(movies)).toBe(expected)
      expect(stringify.mock.calls.map(([value]) => (value as Movie).id)).toEqual(['b'])
      expect(moviesJson([])).toBe('[]')
    } finally {
      stringify.mockRestore()
    }
  })
})
