// Issue 22: a store passed to createMovieLog by its user survives its connections dying: no
// `error` event ends the process, the calls they break fail as StoreUnavailableError, and the
// log serves again once the store does. (An unheard `error` event fails this test run.)
import KeyvRedis, { createClient } from '@keyv/redis'
import Keyv from 'keyv'
import { createMovieLog, type MovieLog, StoreUnavailableError } from 'movie-log'
import pg from 'pg'
import { afterEach, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { createPrivatePostgres, POSTGRES_ADMIN_URL } from './_postgres'
import { startPrivateRedis, stop } from './_processes'
import { describeWith } from './_services'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/**
 * The outcome of adds whose connection was killed under them: some failed (the kill met them
 * in flight), and every failure is a StoreUnavailableError.
 */
async function expectCutShort(adding: Promise<PromiseSettledResult<unknown>[]>): Promise<void> {
  const failed = (await adding).flatMap((result) =>
    result.status === 'rejected' ? [result.reason] : [],
  )
  expect(failed.length).toBeGreaterThan(0)
  for (const error of failed) expect(StoreUnavailableError.is(error)).toBe(true)
}

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
    // Writes are paused: an add's write is sent and held, unanswered, until the kill meets
    // it (a `b` client in Redis's count; CLIENT and INFO are not writes, so admin is not held).
    await admin.sendCommand(['CLIENT', 'PAUSE', '30000', 'WRITE'])
    cleanups.push(() => admin.sendCommand(['CLIENT', 'UNPAUSE']))
    const adding = Promise.allSettled(Array.from({ length: 50 }, () => log.addMovie(aMovie())))
    const blocked = async () =>
      Number(
        /blocked_clients:(\d+)/.exec(String(await admin.sendCommand(['INFO', 'clients'])))?.[1],
      )
    await expect.poll(blocked, { interval: 20 }).toBeGreaterThan(0)
    await kill()
    await admin.sendCommand(['CLIENT', 'UNPAUSE'])
    await expectCutShort(adding)
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
    // A transaction of ours holds the log's tables: the adds' statements are sent and wait on
    // its lock until their connections are terminated under them, which pg_stat_activity shows.
    const holder = new URL(POSTGRES_ADMIN_URL as string)
    holder.pathname = `/${postgres.database}`
    const locker = new pg.Client({ connectionString: holder.href })
    locker.on('error', () => {})
    await locker.connect()
    cleanups.push(() => locker.end().catch(() => {}))
    await locker.query('BEGIN')
    await locker.query(
      'LOCK TABLE movie_log_movies, movie_log_records, movie_log_changes IN ACCESS EXCLUSIVE MODE',
    )
    const adding = Promise.allSettled(Array.from({ length: 50 }, () => log.addMovie(aMovie())))
    const waiting = `SELECT pid FROM pg_stat_activity WHERE datname = current_database()
      AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`
    await expect
      .poll(async () => (await locker.query(waiting)).rowCount, { interval: 20 })
      .toBeGreaterThan(0)
    // Every connection of the log ends (ours runs the query) while its adds wait on our lock.
    const { rows } = await locker.query(
      `SELECT wait_event_type = 'Lock' AS waiting, pg_terminate_backend(pid) AS ended
       FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    )
    expect(rows.filter((row) => row.waiting && row.ended).length).toBeGreaterThan(0)
    await locker.query('ROLLBACK')
    await expectCutShort(adding)
    await addsAgain(log)
  })
})
