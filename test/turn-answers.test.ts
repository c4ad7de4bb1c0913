import { createMovieLog, type Movie } from 'movie-log'
import { memory } from 'movie-log/memory'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { aMovie } from './_movies'

// memory() answers the adds of one turn together, after the turn's I/O (turn-answers.ts): the
// movie is stored and readable at once, only the answer waits.
describe('memory(): the adds of one turn answered together', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('answers after the I/O of the turn, every add of the turn in one go, each stored at once', async () => {
    const log = createMovieLog(memory())
    const answered: Movie[] = []
    const adds = ['One', 'Two', 'Three'].map((title) =>
      log.addMovie(aMovie({ title })).then((movie) => {
        answered.push(movie)
        return movie
      }),
    )
    // Every microtask of this turn run: no answer yet, yet the movies are there to read.
    await new Promise<void>((resolve) => queueMicrotask(resolve))
    for (let step = 0; step < 20; step++) await Promise.resolve()
    expect(answered).toEqual([])
    expect((await log.listMovies()).movies.map((movie) => movie.title)).toEqual([
      'One',
      'Two',
      'Three',
    ])
    // After the turn's I/O (a setImmediate queued after the adds runs after their answers).
    await new Promise((resolve) => setImmediate(resolve))
    expect(answered.map((movie) => movie.title)).toEqual(['One', 'Two', 'Three'])
    expect(await Promise.all(adds)).toEqual(answered)
  })

  it('answers under fake timers a test installed after loading movie-log', async () => {
    const log = createMovieLog(memory())
    vi.useFakeTimers({ toFake: ['setImmediate', 'setTimeout', 'setInterval', 'Date'] })
    // No timer advanced by hand: the runtime's own setImmediate, taken at load, answers.
    const movie = await log.addMovie(aMovie({ title: 'Under fake timers' }))
    expect(movie.title).toBe('Under fake timers')
    expect(vi.getTimerCount()).toBe(0)
  })
})
