// Issue 55, item 2: on PostgreSQL a store call past storeTimeoutMs is cancelled by the server
// (statement_timeout). Adds stuck on a lock used to keep the pool's ten connections after their
// callers had their 503, so a burst drained the pool for every later request, and the adds all
// landed once the lock went, though each had been answered "try again".
import { createMovieLog } from 'movie-log'
import { type Problem, toWebHandler } from 'movie-log/web'
import pg from 'pg'
import { afterEach, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { createPrivatePostgres } from './_postgres'
import { describeWith } from './_services'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const URL_OF_LOG = 'http://movie-log.test/movies'
const MAY_HAVE_LANDED = { status: 503, reason: 'timeout', mayHaveLanded: true }
const WAITING_ON_LOCK = `SELECT count(*) AS n FROM pg_stat_activity
  WHERE datname = current_database() AND application_name = 'movie-log' AND wait_event_type = 'Lock'`

/** A connection of the test's own, beside the log's pool, ended after the test. */
async function connected(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url })
  client.on('error', () => {})
  await client.connect()
  cleanups.push(() => client.end())
  return client
}

describeWith('POSTGRES_URL', 'writes past storeTimeoutMs on PostgreSQL', () => {
  it('cancels adds stuck on a lock: the pool serves reads again, and none of them lands', async () => {
    const database = await createPrivatePostgres('timeouts')
    cleanups.push(() => database.drop())
    const log = createMovieLog(database.url, { storeTimeoutMs: 500 })
    cleanups.push(() => log.close())
    const handle = toWebHandler(log, { onError: () => {} })
    // Opening the store (its schema made) may take longer than one call's bound.
    const status = async () => (await handle(new Request(URL_OF_LOG))).status
    await expect.poll(status, { timeout: 10_000 }).toBe(200)

    const locker = await connected(database.url)
    await locker.query('BEGIN')
    await locker.query('LOCK TABLE movie_log_movies IN SHARE MODE')

    // More adds than the pool has connections (ten), none with an Idempotency-Key.
    const post = (n: number) =>
      handle(
        new Request(URL_OF_LOG, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(aMovie({ title: `Stuck ${n}` })),
        }),
      )
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => post(n)))
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 503))
    const problems = (await Promise.all(answers.map((answer) => answer.json()))) as Problem[]
    for (const problem of problems) expect(problem).toMatchObject(MAY_HAVE_LANDED)

    // The lock is still held: a read needs a connection of the pool, which the adds gave back.
    const read = await handle(new Request(URL_OF_LOG))
    expect(read.status).toBe(200)
    expect(await read.json()).toEqual([])
    // Every add is cancelled by PostgreSQL (the two queued for a connection run when one frees,
    // and are cancelled in their turn): none is left to land when the lock goes.
    const admin = await connected(database.url)
    const waiting = async () => {
      const { rows } = await admin.query<{ n: string }>(WAITING_ON_LOCK)
      return Number(rows[0]?.n)
    }
    await expect.poll(waiting, { timeout: 10_000 }).toBe(0)
    await locker.query('COMMIT')
    const { rows } = await admin.query<{ n: string }>('SELECT count(*) AS n FROM movie_log_movies')
    expect(Number(rows[0]?.n)).toBe(0)
  }, 30_000)
})
