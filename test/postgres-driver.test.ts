// Issue 26: the PostgreSQL driver on pg itself: what it refuses, its schema (byte order whatever
// the locale, created once by racing processes), its pool's errors heard, expired records purged,
// and which errors are the store's.
import { randomUUID } from 'node:crypto'
import { type AddressInfo, createServer, type Socket } from 'node:net'
import pg from 'pg'
import { afterEach, expect, it } from 'vitest'
import type { StoreDriver } from '../src/core/driver'
import { StoreUnavailableError, UnsupportedStoreError } from '../src/core/errors'
import type { Movie } from '../src/core/movie'
import { openPostgresDriver } from '../src/drivers/postgres/driver'
import { classifyPostgresFailure } from '../src/drivers/shared/sql-failures'
import { movieText } from '../src/drivers/sql/driver'
import { CHANGES_LATEST, CHANGES_RANGE, sqlStatements } from '../src/drivers/sql/statements'
import { aMovie } from './_movies'
import { freePort } from './_ports'
import { createPrivatePostgres } from './_postgres'
import { describeWith } from './_services'

const url = process.env.POSTGRES_URL as string
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const options = { namespace: 'movie-log-driver-test', connectTimeoutMs: 1000 }
const movie = (id: string = randomUUID()): Movie => ({ ...aMovie(), notes: '', id }) as Movie
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error) => error,
  )

async function open(storeUrl = url, namespace = `test-${randomUUID()}`) {
  const driver = await openPostgresDriver(storeUrl, { ...options, namespace })
  cleanups.push(async () => {
    await Promise.allSettled(['', 'alice', 'bob'].map((owner) => driver.drop(owner)))
    await driver.close()
  })
  return driver
}

async function query(sql: string, parameters: unknown[] = [], storeUrl = url) {
  const client = new pg.Client({ connectionString: storeUrl })
  client.on('error', () => {})
  await client.connect()
  try {
    return (await client.query(sql, parameters)).rows
  } finally {
    await client.end()
  }
}

describeWith('POSTGRES_URL', 'the PostgreSQL driver', () => {
  it('refuses a URL with no database, or no host, naming it without its password', async () => {
    const noDatabase = await failureOf(
      openPostgresDriver('postgres://user:pw@127.0.0.1:5432', options),
    )
    expect(noDatabase).toBeInstanceOf(UnsupportedStoreError)
    expect(noDatabase.message).toContain(`'postgres://user:***@127.0.0.1:5432' names no database`)
    const empty = await failureOf(openPostgresDriver('postgres://user:pw@127.0.0.1:5432/', options))
    expect(empty.message).toContain('names no database')
    const noHost = await failureOf(openPostgresDriver('postgres:not a url', options))
    expect(noHost).toBeInstanceOf(UnsupportedStoreError)
  })

  it('fails to open an unreachable server with a store failure, and leaves nothing open', async () => {
    const refused = await failureOf(
      openPostgresDriver(`postgres://postgres:pw@127.0.0.1:${await freePort()}/test`, options),
    )
    expect(
      new StoreUnavailableError('open', refused, classifyPostgresFailure(refused)),
    ).toMatchObject({
      reason: 'unreachable',
      storeCode: 'ECONNREFUSED',
    })
  })

  it('gives up connecting after connectTimeoutMs, however long a store call may wait', async () => {
    // A server that takes the connection and never answers PostgreSQL's startup.
    const sockets: Socket[] = []
    const silent = createServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
    })
    const { port } = silent.address() as AddressInfo
    const opening = failureOf(
      openPostgresDriver(`postgres://postgres@127.0.0.1:${port}/test`, {
        namespace: 'silent',
        connectTimeoutMs: 300,
        storeTimeoutMs: 600_000,
      }),
    )
    let guard: ReturnType<typeof setTimeout> | undefined
    const failure = await Promise.race([
      opening,
      new Promise((resolve) => {
        guard = setTimeout(() => resolve('still connecting after 30 s'), 30_000)
      }),
    ]).finally(() => clearTimeout(guard))
    expect(failure).toBeInstanceOf(Error)
    expect(classifyPostgresFailure(failure)).toMatchObject({ reason: 'timeout' })
  })

  it('keeps its text in byte order ("C"), as JavaScript compares ids, whatever the locale', async () => {
    const driver = await open()
    const columns = await query(
      `SELECT column_name, collation_name FROM information_schema.columns WHERE table_name = 'movie_log_movies' AND column_name NOT IN ('movie', 'terms') ORDER BY column_name`,
    )
    expect(columns.map((column) => column.collation_name)).toEqual(['C', 'C', 'C', 'C'])
    const ids = ['a', 'B', '_x', 'b', 'Z9', 'z-', 'é', 'A']
    for (const id of ids) await driver.log('').put(movie(id))
    const listed = await driver.log('').listAfter(undefined, Infinity)
    expect(listed.map((each) => each.id)).toEqual([...ids].sort())
  })

  it("reads a log's history along its primary key, never sorting (issue 29)", async () => {
    const driver = await open()
    const log = driver.log('alice')
    for (let n = 0; n < 3; n++) await log.put(movie())
    const start = (await log.latestChange()) as string
    // What the readers' functions run once they hold the log's lock.
    expect(sqlStatements('postgres').changesFrom).toContain(
      'movie_log_changes_from($1, $2, $3, $4)',
    )
    const client = new pg.Client({ connectionString: url })
    client.on('error', () => {})
    await client.connect()
    try {
      // A few rows: without this PostgreSQL would rightly read the small table whole.
      await client.query('SET enable_seqscan = off')
      for (const [statement, parameters] of [
        [CHANGES_RANGE, ['movie-log-driver-test', 'alice', start, 10]],
        // From the oldest kept (`changesAfter(undefined, …)`): the same range from seq 0.
        [CHANGES_RANGE, ['movie-log-driver-test', 'alice', 0, 10]],
        [CHANGES_LATEST, ['movie-log-driver-test', 'alice']],
      ] as const) {
        const [{ 'QUERY PLAN': plan }] = (
          await client.query(`EXPLAIN (FORMAT JSON) ${statement}`, [...parameters])
        ).rows
        const text = JSON.stringify(plan)
        expect(text, statement).toContain('"Index Name":"movie_log_changes_pkey"')
        expect(text, statement).not.toMatch(/"Node Type":"(Sort|Seq Scan|Bitmap Heap Scan)"/)
      }
    } finally {
      await client.end()
    }
  })

  it('finds no movie under an id PostgreSQL text cannot hold, rather than failing', async () => {
    const log = (await open()).log('')
    expect(await log.get('nul\0id')).toBeUndefined()
  })

  it('creates its schema once when four processes open a new database at once', async () => {
    const database = await createPrivatePostgres('schema')
    cleanups.push(() => database.drop())
    const drivers = await Promise.all(Array.from({ length: 4 }, () => open(database.url, 'racing')))
    const added = movie()
    expect(await drivers[0]?.log('').put(added)).toBe(true)
    expect(await drivers[3]?.log('').get(added.id)).toEqual(added)
  })

  it('opens beside a write in flight once its schema is made, and stalls no writer', async () => {
    const database = await createPrivatePostgres('busy')
    cleanups.push(() => database.drop())
    const first = await open(database.url, 'busy')
    const writer = new pg.Client({ connectionString: database.url })
    writer.on('error', () => {})
    await writer.connect()
    cleanups.push(() => writer.end())
    await writer.query('BEGIN')
    const held = movie()
    await writer.query(
      'INSERT INTO movie_log_movies (namespace, owner, id, screened, movie) VALUES ($1, $2, $3, $4, $5)',
      ['busy', 'held', held.id, held.screenedDate, movieText(held)],
    )
    // DDL at open (even CREATE INDEX IF NOT EXISTS) would wait for that transaction, and every
    // write after it would wait behind the DDL.
    let guard: ReturnType<typeof setTimeout> | undefined
    const second = await Promise.race([
      open(database.url, 'busy'),
      new Promise<never>((_, reject) => {
        guard = setTimeout(() => reject(new Error('the open waited on a write in flight')), 10_000)
      }),
    ]).finally(() => clearTimeout(guard))
    const added = movie()
    expect(await first.log('alice').put(added)).toBe(true)
    expect(await second.log('alice').get(added.id)).toEqual(added)
    await writer.query('COMMIT')
    expect(await second.log('held').get(held.id)).toEqual(held)
  })

  it('lets a burst larger than its pool wait its turn past connectTimeoutMs: no write fails', async () => {
    const database = await createPrivatePostgres('burst')
    cleanups.push(() => database.drop())
    // As the suite's other opens: making a connection may take a while on a loaded machine (CI
    // saw 200 ms pass), and the queue's wait below is still three times as long.
    const connectTimeoutMs = 1000
    const driver = await openPostgresDriver(database.url, {
      namespace: 'burst',
      connectTimeoutMs,
      storeTimeoutMs: 60_000,
    })
    cleanups.push(() => driver.close())
    // Every add waits on the lock: the pool's ten connections are held, and the rest queue.
    const locker = new pg.Client({ connectionString: database.url })
    locker.on('error', () => {})
    await locker.connect()
    cleanups.push(() => locker.end())
    await locker.query('BEGIN')
    await locker.query('LOCK TABLE movie_log_movies IN SHARE MODE')
    const movies = Array.from({ length: 50 }, () => movie())
    const puts = Promise.allSettled(movies.map((each) => driver.log('alice').put(each)))
    // Read outside the locker's transaction, which would see the activity of its first read.
    const waiting = async () => {
      const [{ n }] = await query(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'movie-log' AND wait_event_type = 'Lock'`,
        [],
        database.url,
      )
      return Number(n)
    }
    await expect.poll(waiting, { timeout: 10_000 }).toBe(10)
    // The queued adds now wait well past connectTimeoutMs, which bounds connecting only.
    await new Promise((resolve) => setTimeout(resolve, 3 * connectTimeoutMs))
    await locker.query('COMMIT')
    const settled = await puts
    expect(settled.filter((each) => each.status === 'rejected')).toEqual([])
    expect(settled.map((each) => each.status === 'fulfilled' && each.value)).toEqual(
      movies.map(() => true),
    )
    const [{ n }] = await query('SELECT count(*) AS n FROM movie_log_movies', [], database.url)
    expect(Number(n)).toBe(50)
  })

  it('purges expired records of every owner now and then, and keeps the live ones', async () => {
    const namespace = `test-${randomUUID()}`
    const alice = (await open(url, namespace)).log('alice')
    for (const key of ['one', 'two', 'three']) await alice.create(key, 'expired', -1)
    await alice.create('live', 'kept', 60_000)
    const keys = async () =>
      (
        await query('SELECT key FROM movie_log_records WHERE namespace = $1 ORDER BY key', [
          namespace,
        ])
      ).map((row) => row.key)
    expect(await keys()).toEqual(['live', 'one', 'three', 'two'])
    // Another process's driver purges on its first claim.
    await (await open(url)).log('bob').create('claim', 'x', 60_000)
    expect(await keys()).toEqual(['live'])
  })

  it('raises a store failure after close, and none for a bug in SQL', async () => {
    const driver: StoreDriver = await open()
    await driver.close()
    await driver.close()
    const closed = await failureOf(driver.log('').get('x'))
    expect(driver.classifyFailure(closed)).toBeDefined()
    expect(new StoreUnavailableError('get', closed, classifyPostgresFailure(closed)).reason).toBe(
      'unreachable',
    )
    const syntax = await failureOf(query('SELEC 1'))
    const notNull = await failureOf(
      query('INSERT INTO movie_log_movies (namespace) VALUES ($1)', ['x']),
    )
    expect([syntax.code, notNull.code]).toEqual(['42601', '23502'])
    expect([
      driver.classifyFailure(syntax) !== undefined,
      driver.classifyFailure(notNull) !== undefined,
    ]).toEqual([false, false])
  })
})
