// Issue 18: an add retried with its idempotency key must not bring back a movie that was edited
// or deleted since, even when the first attempt stored the movie and died before recording
// that it had finished (the retry then finishes it, once the first attempt's lock has passed).
import Keyv from 'keyv'
import { createMovieLog, type Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { aMovie } from './_movies'

const KEY = 'add-that-died'

/** A log on a Map whose first "done" record write fails, as if the process died there. */
function logThatDiesOnce() {
  const keyv = new Keyv({ store: new Map() })
  const set = keyv.set.bind(keyv)
  let dies = true
  keyv.set = (async (...args: Parameters<Keyv['set']>) => {
    if (dies && typeof args[1] === 'string' && args[1].includes('"state":"done"')) {
      dies = false
      throw new Error('the process died before recording the add as done')
    }
    return set(...args)
  }) as Keyv['set']
  let now = Date.now()
  const log = createMovieLog(keyv, { clock: () => now })
  const input = aMovie({ title: 'Added once' })
  return {
    log,
    add: () => log.addMovie(input, { idempotencyKey: KEY }),
    /** Past the first attempt's lock, so a retry finishes it. */
    later: () => {
      now += 10 * 60_000
    },
  }
}

async function diedAfterStoring(log: ReturnType<typeof logThatDiesOnce>): Promise<Movie> {
  await expect(log.add()).rejects.toThrow()
  const { movies } = await log.log.listMovies()
  expect(movies).toHaveLength(1)
  return movies[0] as Movie
}

describe('a retried add whose first attempt died after storing its movie', () => {
  it('leaves an edit made since as it is', async () => {
    const died = logThatDiesOnce()
    const movie = await diedAfterStoring(died)
    const edited = await died.log.updateMovie(movie.id, { title: 'Corrected' })
    died.later()
    const retried = await died.add()
    expect(retried.id).toBe(movie.id)
    expect((await died.log.listMovies()).movies).toEqual([edited])
    expect((await died.log.listMovies({ sort: '-screenedDate' })).movies).toEqual([edited])
  })

  it('does not bring back a movie deleted since', async () => {
    const died = logThatDiesOnce()
    const movie = await diedAfterStoring(died)
    expect(await died.log.deleteMovie(movie.id)).toBe(true)
    died.later()
    // The retry finishes the first attempt and answers as it would have (same id), storing nothing.
    expect((await died.add()).id).toBe(movie.id)
    expect(await died.log.getMovie(movie.id)).toBeUndefined()
    expect((await died.log.listMovies()).movies).toEqual([])
    expect((await died.log.listMovies({ sort: '-screenedDate' })).movies).toEqual([])
    // And a second retry, now that the add is recorded as done, still gives nothing back.
    expect((await died.add()).id).toBe(movie.id)
    expect((await died.log.listMovies()).movies).toEqual([])
  })
})
