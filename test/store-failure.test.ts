// Issue 22: a 503 says what happened to the store in words an operator can act on, and the
// error keeps the store's own code. Real stores where they can be made to fail here.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import KeyvRedis, { createClient } from '@keyv/redis'
import {
  createMovieLog,
  type MovieLogStore,
  registerStoreOpener,
  type StoreUnavailableError,
} from 'movie-log'
import { type Problem, toWebHandler } from 'movie-log/web'
import sqlite3 from 'sqlite3'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { guarded } from '../src/core/guard'
import { classifyKeyvFailure } from '../src/drivers/scan/driver'
import { classifySqliteFailure } from '../src/drivers/shared/sql-failures'
import { sqliteDriverOver } from '../src/drivers/sqlite/driver'
import { hungStore } from './_flaky-map'
import { aMovie } from './_movies'
import { startPrivateRedis, stop } from './_processes'
import { describeWith } from './_services'

const cleanups: (() => unknown)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** The log over `store` as a web handler, and the errors its 503s were made of. */
function serve(store: MovieLogStore | string, storeTimeoutMs?: number) {
  const errors: unknown[] = []
  const handle = toWebHandler(createMovieLog(store, { storeTimeoutMs }), {
    onError: (error) => errors.push(error),
  })
  const post = () =>
    handle(
      new Request('http://movie-log.test/movies', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(aMovie()),
      }),
    )
  return { post, errors, lastError: () => errors.at(-1) as StoreUnavailableError }
}

async function expect503(response: Response, detail: RegExp): Promise<void> {
  expect(response.status).toBe(503)
  const problem = (await response.json()) as Problem
  expect(problem.type).toBe('urn:movie-log:problem:store-unavailable')
  expect(problem.detail).toMatch(detail)
}

let sqliteStores = 0

/**
 * A SQLite log on a connection of the test's own (its pragmas are per connection), named by a
 * URL scheme plugged in for it, and a way to run a statement on that connection.
 */
async function sqliteStore() {
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-fault-'))
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }))
  const db = new sqlite3.Database(join(folder, 'movies.sqlite'))
  cleanups.push(() => new Promise((resolve) => db.close(resolve)))
  const scheme = `test-fault-sqlite-${++sqliteStores}`
  registerStoreOpener({
    schemes: [scheme],
    remote: true,
    open: () => sqliteDriverOver(db, { namespace: 'movie-log' }),
    // Opening writes the schema: its failures are read as the driver's are.
    classifyFailure: classifySqliteFailure,
  })
  const query = (sql: string) =>
    new Promise<Record<string, number>[]>((resolve, reject) =>
      db.all(sql, (error, rows) =>
        error ? reject(error) : resolve(rows as Record<string, number>[]),
      ),
    )
  return { keyv: `${scheme}://`, query }
}

async function privateRedis() {
  const redis = await startPrivateRedis()
  cleanups.push(() => stop(redis, 'SIGKILL'))
  const client = createClient({ url: redis.url, disableOfflineQueue: true })
  const store = new KeyvRedis(client, { throwOnErrors: true })
  await client.connect()
  cleanups.push(() => client.destroy())
  return { client, store, redis }
}

describe('a 503 says why the store failed', () => {
  it('SQLite with a full disk: "disk is full", SQLITE_FULL, and 201 again once there is room', async () => {
    const { keyv, query } = await sqliteStore()
    const { post, lastError } = serve(keyv)
    expect((await post()).status).toBe(201)
    // The database may not grow past the pages it has: the disk is full, as far as SQLite knows.
    const [{ page_count: pages = 0 } = {}] = await query('PRAGMA page_count')
    await query(`PRAGMA max_page_count = ${pages}`)
    let response = await post()
    while (response.status === 201) response = await post()
    await expect503(response, /disk is full/)
    expect(lastError()).toMatchObject({ reason: 'disk-full', storeCode: 'SQLITE_FULL' })

    await query(`PRAGMA max_page_count = ${pages * 100}`)
    expect((await post()).status).toBe(201)
  })

  it('SQLite that refuses writes: "read-only", SQLITE_READONLY', async () => {
    const { keyv, query } = await sqliteStore()
    const { post, lastError } = serve(keyv)
    await query('PRAGMA query_only = ON')
    await expect503(await post(), /read-only/)
    expect(lastError()).toMatchObject({ reason: 'read-only', storeCode: 'SQLITE_READONLY' })
    await query('PRAGMA query_only = OFF')
    expect((await post()).status).toBe(201)
  })

  it.each([
    [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      'unreachable',
      'ECONNREFUSED',
    ],
    [
      Object.assign(new Error('getaddrinfo ENOTFOUND nohost'), { code: 'ENOTFOUND' }),
      'unreachable',
      'ENOTFOUND',
    ],
    [
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
      }),
      'unreachable',
      '57P01',
    ],
    [
      Object.assign(new Error('too many connections for database "x"'), { code: '53300' }),
      'too-many-connections',
      '53300',
    ],
    [Object.assign(new Error('could not extend file'), { code: '53100' }), 'disk-full', '53100'],
    [Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' }), 'disk-full', 'ENOSPC'],
    [
      Object.assign(new Error('cannot execute INSERT in a read-only transaction'), {
        code: '25006',
      }),
      'read-only',
      '25006',
    ],
    [
      new Error(
        'MISCONF Redis is configured to save RDB snapshots, but it is unable to persist to disk',
      ),
      'read-only',
      'MISCONF',
    ],
    [new Error('ERR max number of clients reached'), 'too-many-connections', undefined],
    [new Error('WRONGPASS invalid username-password pair'), 'auth-failed', 'WRONGPASS'],
    [
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
      'busy',
      'SQLITE_BUSY',
    ],
    [
      Object.assign(new Error('The client is offline'), { name: 'ClientOfflineError' }),
      'unreachable',
      'ClientOfflineError',
    ],
    [
      new Error('Connection terminated due to connection timeout', {
        cause: new Error('Connection terminated unexpectedly'),
      }),
      'timeout',
      undefined,
    ],
    [
      new AggregateError(
        [Object.assign(new Error('connect ECONNREFUSED ::1:1'), { code: 'ECONNREFUSED' })],
        '',
      ),
      'unreachable',
      'ECONNREFUSED',
    ],
  ])('reads %s as %s (%s)', (error, reason, code) => {
    // The scan's classifier reads the errors of every client keyv's own adapters use.
    expect(classifyKeyvFailure(error)).toEqual({ reason, code })
  })

  it('reads an error no client raises as no store failure (issue 37: it was a 503)', () => {
    expect(classifyKeyvFailure(new Error('something else'))).toBeUndefined()
  })
})

describeWith('redis-server', 'a 503 says why a private Redis failed', () => {
  it('a Redis replica: "read-only", READONLY', async () => {
    const { client, store } = await privateRedis()
    // A replica of a master that is not there: it serves reads and refuses writes.
    await client.sendCommand(['REPLICAOF', '127.0.0.1', '1'])
    const { post, lastError } = serve(store)
    await expect503(await post(), /read-only/)
    expect(lastError()).toMatchObject({ reason: 'read-only', storeCode: 'READONLY' })
  })

  it('a store that does not answer: "did not answer in time", with no code of the store', async () => {
    const { store, redis } = await privateRedis()
    const { post, lastError } = serve(store, 300)
    expect((await post()).status).toBe(201)
    // Redis stopped, its connection open: commands are sent and never answered.
    redis.process.kill('SIGSTOP')
    await expect503(await post(), /did not answer in time/)
    expect(lastError()).toMatchObject({ reason: 'timeout', storeCode: undefined })
    redis.process.kill('SIGCONT')
  })
})

describe('the store timeout', () => {
  it('fails a store call that hangs at storeTimeoutMs, not before', async () => {
    // Every store call hangs. Timers are faked, so the test reads the moment the call fails on
    // the faked timers, whatever the machine's speed.
    const log = createMovieLog(hungStore(), { storeTimeoutMs: 200 })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    cleanups.push(() => vi.useRealTimers())
    let outcome: unknown
    const adding = log.addMovie(aMovie()).then(
      () => 'added',
      (error: unknown) => error,
    )
    void adding.then((settled) => {
      outcome = settled
    })
    await vi.advanceTimersByTimeAsync(199)
    expect(outcome).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(outcome).toMatchObject({ name: 'StoreUnavailableError', reason: 'timeout' })
  })
})

describe('a store call that can hang (a timer)', () => {
  it('rejects when the call fails later and reading its error throws', async () => {
    const guard = guarded(
      {
        remote: true,
        classifyFailure: () => {
          throw new Error('the classifier broke')
        },
      },
      60_000,
    )
    const failing = () =>
      new Promise<never>((_, reject) => setImmediate(() => reject(new Error('later'))))
    await expect(guard('get', failing)).rejects.toThrow('the classifier broke')
  })

  it('takes a driver that answers a plain value, as the call without a timer does', async () => {
    const guard = guarded({ remote: true, classifyFailure: () => undefined }, 60_000)
    await expect(guard('get', (() => 'plain') as unknown as () => Promise<string>)).resolves.toBe(
      'plain',
    )
  })
})

describe('a store call that cannot hang (no timer)', () => {
  it('rejects, never throws, when the call throws at once and reading the error throws too', async () => {
    const guard = guarded(
      {
        remote: false,
        classifyFailure: () => {
          throw new Error('the classifier broke')
        },
      },
      1000,
    )
    let answer: Promise<unknown> | undefined
    expect(() => {
      answer = guard('get', () => {
        throw new Error('the driver threw at once')
      })
    }).not.toThrow()
    await expect(answer).rejects.toThrow('the classifier broke')
  })

  it('raises a store failure of a local store as StoreUnavailableError, anything else as it is', async () => {
    const failure = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' })
    const guard = guarded({ remote: false, classifyFailure: classifySqliteFailure }, 1000)
    await expect(guard('set', () => Promise.reject(failure))).rejects.toMatchObject({
      name: 'StoreUnavailableError',
      cause: failure,
    })
    const bug = new TypeError('a bug')
    await expect(guard('set', () => Promise.reject(bug))).rejects.toBe(bug)
    await expect(guard('get', async () => 'answer')).resolves.toBe('answer')
  })
})
