// Issue 29: the PostgreSQL driver's change history, its LISTEN client waking other processes'
// watchers, and waking them again once that client is cut and comes back.
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterEach, expect, it } from 'vitest'
import type { Movie } from '../src/core/movie'
import { openPostgresDriver } from '../src/drivers/postgres/driver'
import { movieText } from '../src/drivers/sql/driver'
import { describeChangeSuite, wakes } from './_change-conformance'
import { aMovie } from './_movies'
import { createPrivatePostgres } from './_postgres'
import { describeWith } from './_services'

const url = process.env.POSTGRES_URL as string
const open = (storeUrl: string, namespace: string) =>
  openPostgresDriver(storeUrl, { namespace, connectTimeoutMs: 1000 })

if (url)
  describeChangeSuite('PostgreSQL', (namespace) => open(url, namespace), {
    bound: 1000,
    keptAtMost: 1000,
    url,
  })

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describeWith('POSTGRES_URL', 'PostgreSQL history under concurrent writers', () => {
  it('never reads past a change that commits after a later one (a reader waits for writers in flight)', async () => {
    const namespace = `test-${randomUUID()}`
    const driver = await open(url, namespace)
    cleanups.push(async () => {
      await driver.drop('alice')
      await driver.close()
    })
    const log = driver.log('alice')
    const movie = () => ({ ...aMovie(), notes: '', id: randomUUID() }) as Movie
    await log.put(movie())
    const start = (await log.latestChange()) as string
    // A writer that takes its seq first and commits last.
    const slow = new pg.Client({ connectionString: url, application_name: 'movie-log-slow-writer' })
    slow.on('error', () => {})
    await slow.connect()
    cleanups.push(() => slow.end())
    const waiting = async () =>
      Number(
        (
          await slow.query(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory' AND query LIKE '%movie_log_changes_%'`,
          )
        ).rows[0].n,
      )
    /** Reads while a change made first is in flight and a later one committed. */
    const whileInFlight = async <T>(read: () => Promise<T>) => {
      const [early, late] = [movie(), movie()]
      await slow.query('BEGIN')
      await slow.query(
        'INSERT INTO movie_log_movies (namespace, owner, id, screened, movie) VALUES ($1, $2, $3, $4, $5)',
        [namespace, 'alice', early.id, early.screenedDate, movieText(early)],
      )
      expect(await log.put(late)).toBe(true)
      const reading = read()
      // The reader waits for the writer in flight, on the log's lock.
      await expect.poll(waiting).toBe(1)
      await slow.query('COMMIT')
      return { read: await reading, early, late }
    }
    const { read, early, late } = await whileInFlight(() => log.changesAfter(start, 10))
    expect(read.changes.map((change) => change.movie.id)).toEqual([early.id, late.id])
    const after = (await log.latestChange()) as string
    const latest = await whileInFlight(() => log.latestChange())
    const [first, last] = (await log.changesAfter(after, 10)).changes
    expect([first?.movie.id, last?.movie.id]).toEqual([latest.early.id, latest.late.id])
    expect(latest.read).toBe(last?.id)
  })
})

describeWith('POSTGRES_URL', 'PostgreSQL change wakes', () => {
  it('wakes watchers again once its LISTEN client was ended and is back, and hears changes then', async () => {
    const database = await createPrivatePostgres('listen')
    cleanups.push(() => database.drop())
    const namespace = `test-${randomUUID()}`
    const [driver, writer] = [
      await open(database.url, namespace),
      await open(database.url, namespace),
    ]
    cleanups.push(
      () => driver.close(),
      () => writer.close(),
    )
    const { wake, next } = wakes()
    driver.onChange('alice', wake)
    await next(5000, 'the LISTEN client ready')
    expect(await database.terminate()).toBeGreaterThan(0)
    // Back, it wakes everyone: what was written meanwhile is read from the history.
    await next(5000, 'the LISTEN client back')
    const added = { ...aMovie(), notes: '', id: randomUUID() } as Movie
    // The writer's pool lost its connections too: a write may fail once.
    let written = false
    for (let attempt = 0; attempt < 5 && !written; attempt++)
      written = await writer
        .log('alice')
        .put(added)
        .catch(() => false)
    expect(written).toBe(true)
    await next(1000, 'a put after the LISTEN client came back')
    expect(await driver.log('alice').latestChange()).toEqual(expect.any(String))
  })
})

describeWith('POSTGRES_URL', 'PostgreSQL changes whose NOTIFY never came', () => {
  it('wakes watchers within seconds for a change committed by a writer that sent no NOTIFY (one that died after its commit)', async () => {
    const database = await createPrivatePostgres('sweep')
    cleanups.push(() => database.drop())
    const namespace = `test-${randomUUID()}`
    const driver = await open(database.url, namespace)
    cleanups.push(() => driver.close())
    const { wake, next } = wakes()
    driver.onChange('alice', wake)
    await next(5000, 'the LISTEN client ready')
    // A write as the driver makes it, committed, with no NOTIFY after it.
    const lone = new pg.Client({ connectionString: database.url })
    await lone.connect()
    cleanups.push(() => lone.end())
    const movie = { ...aMovie(), notes: '', id: randomUUID() } as Movie
    await lone.query(
      'INSERT INTO movie_log_movies (namespace, owner, id, screened, movie) VALUES ($1, $2, $3, $4, $5)',
      [namespace, 'alice', movie.id, movie.screenedDate, movieText(movie)],
    )
    await next(10_000, 'a change with no NOTIFY')
    const read = await driver.log('alice').changesAfter(undefined, 10)
    expect(read.changes.map((change) => change.movie.id)).toEqual([movie.id])
  })
})
