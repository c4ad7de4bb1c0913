import { randomUUID } from 'node:crypto'
import { type IdempotencyError, StoreUnavailableError } from 'movie-log'
import { expect, it } from 'vitest'
import { aMovie } from './_movies'
import type { StoreSuiteContext } from './_store-suite'

/** Retried adds, and a store that cannot be reached. */
export function describeFailureSuite({ backend, openLog, connect }: StoreSuiteContext): void {
  it('adds once per idempotency key: 50 concurrent retries from two logs give one movie', async () => {
    const namespace = `test-${randomUUID()}`
    const [first, second] = [await openLog(namespace), await openLog(namespace)]
    const key = randomUUID()
    const input = aMovie({ title: 'Retried' })
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, n) =>
        (n % 2 ? first : second).addMovie(input, { idempotencyKey: key }),
      ),
    )
    const added = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))
    const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []))
    expect(added.length).toBeGreaterThan(0)
    for (const movie of added) expect(movie).toEqual(added[0])
    // Retries that arrive while the first is running are told so, never given a second movie.
    for (const reason of refused)
      expect((reason as IdempotencyError).code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT')
    expect((await first.listMovies()).movies).toEqual([added[0]])
    expect(await second.addMovie(input, { idempotencyKey: key })).toEqual(added[0])

    const other = await first.addMovie(aMovie({ title: 'Other' }), {
      idempotencyKey: 'other-key',
    })
    expect((await second.listMovies()).movies).toEqual([added[0], other])
    const reuse = await second
      .addMovie(aMovie({ title: 'Not the same' }), { idempotencyKey: key })
      .catch((e: unknown) => e)
    expect((reuse as IdempotencyError).code).toBe('IDEMPOTENCY_KEY_REUSED')
  })

  it('raises StoreUnavailableError, never an empty answer, when the store is unreachable', async () => {
    const log = await connect(await backend.openUnreachable())
    const calls = {
      addMovie: () => log.addMovie(aMovie()),
      listMovies: () => log.listMovies(),
      listPage: () => log.listMovies({ limit: 5 }),
      getMovie: () => log.getMovie(randomUUID()),
      updateMovie: () => log.updateMovie(randomUUID(), { title: 'Edited' }),
      deleteMovie: () => log.deleteMovie(randomUUID()),
      listByDate: () => log.listMovies({ sort: '-screenedDate', from: '2024', limit: 5 }),
    }
    for (const [name, call] of Object.entries(calls)) {
      const error = await call().then(
        (value) => value,
        (e: unknown) => e,
      )
      expect(error, name).toBeInstanceOf(StoreUnavailableError)
      expect((error as StoreUnavailableError).code).toBe('STORE_UNAVAILABLE')
      expect((error as StoreUnavailableError).cause, name).toBeDefined()
    }
  })
}
