// Issue 35: the D1 driver on Miniflare's local D1 (workerd): the driver suite, what D1 refuses of
// SQLite, its failures, and the watch's poll. The store, watch, owner and change-history suites
// on D1 are in test/ci/store-d1.test.ts. CI's, as workerd is another runtime.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { Movie } from '../../src/core/movie'
import { classifyD1Failure, type D1DatabaseLike, openD1Driver } from '../../src/drivers/d1/driver'
import { wakes } from '../_change-conformance'
import { localD1 } from '../_d1'
import { describeDriverSuite } from '../_driver-suite'
import { aMovie } from '../_movies'

const { binding } = localD1()
const aStoredMovie = () => ({ ...aMovie(), notes: '', id: randomUUID() }) as Movie
const openDriver = async (namespace: string) => openD1Driver(await binding(), { namespace })

describeDriverSuite('D1, an owner named', openDriver, 'alice:{x}')

describe('D1 driver', () => {
  const errorOf = async (sql: string) => {
    const db = await binding()
    return db
      .prepare(sql)
      .all()
      .then(
        () => undefined,
        (error: unknown) => error,
      )
  }

  it('opens a new database and one it opened before, from two bindings at once', async () => {
    const namespace = `test-${randomUUID()}`
    const [one, two] = await Promise.all([openDriver(namespace), openDriver(namespace)])
    const movie = aStoredMovie()
    expect(await one.log('alice').put(movie)).toBe(true)
    expect(await two.log('alice').get(movie.id)).toEqual(movie)
    expect(await (await openDriver(namespace)).log('alice').listAfter(undefined, 10)).toEqual([
      movie,
    ])
    await one.drop('alice')
  })

  it("reads D1's own errors for a store failing, and its refusals of bad SQL as bugs", async () => {
    // What D1 answers when its database's Durable Object is away, reset, overloaded or full.
    for (const [message, reason] of [
      ['D1_ERROR: Network connection lost.', 'unreachable'],
      ['D1_ERROR: D1 DB reset because its code was updated.', 'unreachable'],
      ['D1_ERROR: Internal error in D1 DB storage caused object to be reset.', 'unreachable'],
      ['D1_ERROR: Cannot resolve D1 DB due to transient issue on remote node.', 'unreachable'],
      [
        'D1_ERROR: D1 DB storage operation exceeded timeout which caused object to be reset.',
        'timeout',
      ],
      ['D1_ERROR: D1 DB is overloaded. Too many requests queued.', 'busy'],
      ['D1_ERROR: D1 DB is overloaded. Requests queued for too long.', 'timeout'],
      ["D1_ERROR: D1 DB's isolate exceeded its memory limit and was reset.", 'busy'],
      ['D1_ERROR: Exceeded maximum DB size', 'disk-full'],
      ['Too many API requests by single worker invocation.', 'busy'],
      ['D1_ERROR: database or disk is full: SQLITE_FULL', 'disk-full'],
      ['D1_ERROR: database is locked: SQLITE_BUSY', 'busy'],
    ] as const) {
      const failure = classifyD1Failure(new Error('D1 failed', { cause: new Error(message) }))
      expect(failure?.reason, message).toBe(reason)
    }
    // Miniflare's D1 answering: a function and a pragma D1 does not authorize, bad SQL, a
    // constraint, a type it cannot bind. Each is a bug, never a 503.
    const bugs = [
      await errorOf('SELECT sqlite_version()'),
      await errorOf('PRAGMA journal_mode = WAL'),
      await errorOf('SELEC 1'),
      await errorOf('SELECT * FROM no_such_table'),
    ]
    const db = await binding()
    bugs.push(
      await Promise.resolve()
        .then(() => db.prepare('SELECT ?1').bind(1n).all())
        .catch((error: unknown) => error),
    )
    for (const bug of bugs) {
      expect(bug, String(bug)).toBeInstanceOf(Error)
      expect(classifyD1Failure(bug), String(bug)).toBeUndefined()
    }
    expect(String(bugs[0])).toMatch(/not authorized/)
  })

  it('wakes a watch when another binding writes the log, by polling its latest change', async () => {
    const namespace = `test-${randomUUID()}`
    const [watched, writer] = [await openDriver(namespace), await openDriver(namespace)]
    const { wake, next } = wakes()
    const stop = watched.onChange('alice', wake)
    try {
      await next(5000, 'the first poll')
      await writer.log('alice').put(aStoredMovie())
      await next(5000, 'a poll after another binding wrote')
      // Another owner's write moves nothing of alice's: the write after it is what wakes.
      await writer.log('bob').put(aStoredMovie())
      await writer.log('alice').put(aStoredMovie())
      await next(5000, 'a second write')
    } finally {
      stop()
      await Promise.all(['alice', 'bob'].map((owner) => writer.drop(owner)))
      await Promise.all([watched.close(), writer.close()])
    }
  })

  it('wakes a watch when its poll fails, so the watch meets the failure (a Worker out of queries)', async () => {
    const db = await binding()
    let failing = false
    // Past the queries an invocation may make, every statement fails as Workers say.
    const limited: D1DatabaseLike = {
      prepare: (sql) => {
        if (!failing) return db.prepare(sql)
        const refused = {
          bind: () => refused,
          all: () =>
            Promise.reject(new Error('Too many API requests by single worker invocation.')),
        }
        return refused
      },
      batch: (statements) => db.batch(statements),
    }
    const driver = await openD1Driver(limited, { namespace: `test-${randomUUID()}` })
    const { wake, next } = wakes()
    const stop = driver.onChange('alice', wake)
    try {
      await next(5000, 'the first poll')
      failing = true
      await next(5000, 'a poll that failed')
      await expect(driver.log('alice').latestChange()).rejects.toThrow(/Too many API requests/)
    } finally {
      stop()
      await driver.close()
    }
  })
})
