import { createMovieLog, IdempotencyError, StoreUnavailableError } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { aMovie, untyped } from './_movies'

/** A Map whose movie writes fail while `failMovies` is set: the first attempt dies mid-add. */
class MovieWritesFail extends Map {
  failMovies = false
  override set(key: unknown, value: unknown) {
    if (this.failMovies && String(key).includes(':movie:')) throw new Error('crashed mid-add')
    return super.set(key, value)
  }
}

describe('idempotency keys', () => {
  it('lets a retry finish a first attempt that died, with the same movie, once its lock expires', async () => {
    const store = new MovieWritesFail()
    let now = Date.parse('2024-05-01T20:30:00Z')
    const log = createMovieLog(store, { clock: () => now })
    const input = aMovie({ title: 'Interrupted' })

    store.failMovies = true
    const died = await log.addMovie(input, { idempotencyKey: 'k-1' }).catch((e: unknown) => e)
    expect(died).toBeInstanceOf(StoreUnavailableError)
    store.failMovies = false

    const early = await log.addMovie(input, { idempotencyKey: 'k-1' }).catch((e: unknown) => e)
    expect(early).toBeInstanceOf(IdempotencyError)
    expect((early as IdempotencyError).code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT')

    now += 31_000
    const finished = await log.addMovie(input, { idempotencyKey: 'k-1' })
    const again = await log.addMovie(input, { idempotencyKey: 'k-1' })
    expect(again).toEqual(finished)
    expect((await log.listMovies()).movies).toEqual([finished])
  })

  it('treats the same JSON in another key order as the same request', async () => {
    const log = createMovieLog()
    const first = await log.addMovie(aMovie(), { idempotencyKey: 'k' })
    const reordered = Object.fromEntries(Object.entries(aMovie()).reverse())
    expect(await log.addMovie(untyped(reordered), { idempotencyKey: 'k' })).toEqual(first)
  })

  it.each([[''], ['has space'], ['é'], ['x'.repeat(256)]])('refuses the key %j', async (key) => {
    const log = createMovieLog()
    const error = await log.addMovie(aMovie(), { idempotencyKey: key }).catch((e: unknown) => e)
    expect((error as IdempotencyError).code).toBe('IDEMPOTENCY_KEY_INVALID')
    expect((await log.listMovies()).movies).toEqual([])
  })

  it('claims nothing for an invalid movie', async () => {
    const log = createMovieLog()
    await expect(log.addMovie(untyped({ title: '' }), { idempotencyKey: 'k' })).rejects.toThrow()
    expect(await log.addMovie(aMovie(), { idempotencyKey: 'k' })).toMatchObject({ title: 'Heat' })
  })
})
