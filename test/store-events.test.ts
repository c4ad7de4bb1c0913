// Issue 22: a store passed to createMovieLog by its user survives its connections dying: no
// `error` event ends the process, the calls they break fail as StoreUnavailableError, and the
// log serves again once the store does. (An unheard `error` event fails this test run.)
import KeyvRedis, { createClient } from '@keyv/redis'
import Keyv from 'keyv'
import { createMovieLog, type MovieLog, StoreUnavailableError } from 'movie-log'
import { afterEach, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { createPrivatePostgres } from './_postgres'
import { startPrivateRedis, stop } from './_processes'
import { describeWith } from './_services'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Adds until one is stored: every failure on the way must be a StoreUnavailableError. */
async function addsAgain(log: MovieLog): Promise<void> {
  await expect
    .poll(
      async () => {
        const added = await log.addMovie(aMovie()).catch((error: unknown) => error)
        if (added instanceof Error && !StoreUnavailableError.is(added)) throw added
        return added instanceof Error ? added.name : 'added'
      },
      { interval: 50 },
    )
    .toBe('added')
}

describeWith('redis-server', 'a KeyvRedis the caller built', () => {
  it('outlives its connection killed while idle and while adding', async () => {
    const redis = await startPrivateRedis()
    cleanups.push(() => stop(redis, 'SIGKILL'))
    const client = createClient({ url: redis.url })
    const store = new KeyvRedis(client)
    await client.connect()
    cleanups.push(() => client.destroy())
    const admin = createClient({ url: redis.url })
    await admin.connect()
    cleanups.push(() => admin.destroy())
    const kill = () => admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes'])

    const log = createMovieLog(new Keyv({ store, useKeyPrefix: false }))
    await log.addMovie(aMovie())
    await kill()
    await addsAgain(log)
    const adding = Promise.allSettled(Array.from({ length: 50 }, () => log.addMovie(aMovie())))
    await kill()
    for (const result of await adding) {
      if (result.status === 'rejected') expect(StoreUnavailableError.is(result.reason)).toBe(true)
    }
    await addsAgain(log)
  })
})

describeWith('POSTGRES_URL', 'a log on a postgres:// URL', () => {
  it('outlives every connection terminated while idle and while adding', async () => {
    const postgres = await createPrivatePostgres('events')
    cleanups.push(() => postgres.drop())
    const log = createMovieLog(postgres.url, { connectTimeoutMs: 2000 })
    cleanups.push(() => log.close())

    await log.addMovie(aMovie())
    expect(await postgres.terminate()).toBeGreaterThan(0)
    await expect.poll(() => postgres.connections(), { interval: 20 }).toBe(0)
    await addsAgain(log)
    const adding = Promise.allSettled(Array.from({ length: 50 }, () => log.addMovie(aMovie())))
    await postgres.terminate()
    for (const result of await adding) {
      if (result.status === 'rejected') expect(StoreUnavailableError.is(result.reason)).toBe(true)
    }
    await addsAgain(log)
  })
})
