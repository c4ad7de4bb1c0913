import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { createMovieLogs, registerStoreOpener } from 'movie-log'
import sqlite3 from 'sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import type { LogDriver } from '../src/core/driver'
import type { Movie } from '../src/core/movie'
import { movieText } from '../src/drivers/sql/driver'
import { FOLD_AFTER } from '../src/drivers/sql/fold'
import { sqlStatements } from '../src/drivers/sql/statements'
import { openSqliteDriver } from '../src/drivers/sqlite/driver'
import { aMovie } from './_movies'
import { sqliteClients, sqliteUrl } from './_sqlite-clients'
import { tempFolders } from './_temp'

// Issue 61: on SQLite the first search or statistics after a burst of adds counted in every
// owner's waiting adds inside the request's store timeout, so one person's adds cost the other's
// read (a 503 after 5 s at 6,000 adds). Now a read counts in its own owner's alone, a batch of
// 500 per store call before the read, and a process counts a burst of its own adds in while the
// store idles. Counted here by rows and calls, never by time.
const tempFolder = tempFolders()
const closing: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()))
})
const ADDS = 1200

function aFile(library: string) {
  const path = join(tempFolder('movie-log-backlog-'), 'movies.sqlite')
  const namespace = `backlog-${randomUUID()}`
  const db = new sqlite3.Database(path)
  closing.push(() => new Promise((done) => db.close(done)))
  const run = (sql: string, parameters: unknown[] = []) =>
    new Promise<void>((done, fail) =>
      db.run(sql, parameters, (error) => (error ? fail(error) : done())),
    )
  /** Rows of `owner` whose terms are not counted in yet, read as another program would. */
  const waiting = (owner: string) =>
    new Promise<number>((done, fail) =>
      db.get(
        'SELECT count(*) AS n FROM movie_log_movies WHERE namespace = ? AND owner = ? AND terms IS NULL',
        [namespace, owner],
        (error, row: { n: number }) => (error ? fail(error) : done(row.n)),
      ),
    )
  /**
   * `count` adds of `owner`'s as another process on the file leaves them (the driver's own put,
   * without terms): no process here knows of them, so only a read counts them in.
   */
  const leftByAnother = async (owner: string, count: number) => {
    const { put } = sqlStatements('sqlite')
    await run('BEGIN')
    for (let n = 0; n < count; n++) {
      const movie = { ...aMovie({ title: `Burst ${n}`, notes: 'burst' }), id: randomUUID() }
      const values = [
        namespace,
        owner,
        movie.id,
        movie.screenedDate,
        movieText(movie as Movie),
        null,
      ]
      await run(put.replace(/\$(\d)/g, '?$1'), values)
    }
    await run('COMMIT')
  }
  return { url: sqliteUrl(path, library), namespace, waiting, leftByAnother }
}

async function addMany(log: ReturnType<ReturnType<typeof createMovieLogs>['of']>, count: number) {
  for (let n = 0; n < count; n += 100) {
    const batch = Array.from({ length: Math.min(100, count - n) }, (_, k) =>
      aMovie({ title: `Burst ${n + k}`, notes: 'burst' }),
    )
    await Promise.all(batch.map((movie) => log.addMovie(movie)))
  }
}

describe.each(sqliteClients)('on %s', (library) => {
  it("never counts in another person's adds for a read", async () => {
    const file = aFile(library)
    const logs = createMovieLogs(file.url, { namespace: file.namespace })
    closing.push(() => logs.close())
    const [alice, bob] = [logs.of('alice'), logs.of('bob')]
    await bob.addMovie(aMovie({ title: 'Ran', notes: 'castle' }))
    await file.leftByAnother('alice', ADDS)
    expect([await file.waiting('alice'), await file.waiting('bob')]).toEqual([ADDS, 1])

    expect((await bob.listMovies({ q: 'castle' })).movies.map((m) => m.title)).toEqual(['Ran'])
    expect((await bob.stats()).total).toBe(1)
    // Bob's reads counted in Bob's add, and not one of Alice's.
    expect([await file.waiting('alice'), await file.waiting('bob')]).toEqual([ADDS, 0])

    expect((await alice.stats()).total).toBe(ADDS)
    expect(await file.waiting('alice')).toBe(0)
    expect((await alice.listMovies({ q: 'burst', limit: 5 })).movies).toHaveLength(5)
  })

  it('counts in its own backlog a batch per store call, each with a timeout of its own, before the read', async () => {
    const file = aFile(library)
    const scheme = `test-backlog-${library}`
    const calls: string[] = []
    registerStoreOpener({
      schemes: [scheme],
      remote: true,
      open: async (_url, options) => {
        const driver = await openSqliteDriver(file.url, options)
        return {
          ...driver,
          log: (owner) => {
            const log = driver.log(owner)
            const recorded: LogDriver = { ...log }
            for (const name of ['countPending', 'searchPage', 'search', 'tallies'] as const) {
              const call = log[name] as ((...args: unknown[]) => Promise<unknown>) | undefined
              if (!call) continue
              ;(recorded as unknown as Record<string, unknown>)[name] = async (
                ...args: unknown[]
              ) => {
                const answer = await call(...args)
                calls.push(`${owner} ${name}${name === 'countPending' ? ` ${answer}` : ''}`)
                return answer
              }
            }
            return recorded
          },
        }
      },
    })
    const logs = createMovieLogs(`${scheme}://`, { namespace: file.namespace })
    closing.push(() => logs.close())
    const [alice, bob] = [logs.of('alice'), logs.of('bob')]
    await bob.stats()
    await file.leftByAnother('alice', ADDS)
    await alice.listMovies({ q: 'burst' })
    await alice.stats()
    // 1,200 waiting: 700 left after the first batch, 200 after the second, none after the third.
    expect(calls).toEqual([
      'bob countPending 0',
      'bob tallies',
      'alice countPending 700',
      'alice countPending 200',
      'alice countPending 0',
      'alice searchPage',
      'alice countPending 0',
      'alice tallies',
    ])
    expect(await file.waiting('alice')).toBe(0)
  })

  it('counts a burst of its own adds in while the store idles, before any read', async () => {
    // Left to the reads alone, 10,000 adds were the adder's first search's work: 8 s of CPU.
    const file = aFile(library)
    const logs = createMovieLogs(file.url, { namespace: file.namespace })
    closing.push(() => logs.close())
    const [alice, bob] = [logs.of('alice'), logs.of('bob')]
    await addMany(alice, ADDS)
    await addMany(bob, FOLD_AFTER - 1)
    // No read here: the process counts Alice's in once the adds stop, a batch at a time.
    await expect.poll(() => file.waiting('alice'), { timeout: 20_000, interval: 20 }).toBe(0)
    // Fewer than a burst are left to the read (an add costs about half as much without them).
    expect(await file.waiting('bob')).toBe(FOLD_AFTER - 1)
    expect((await alice.stats()).total).toBe(ADDS)
    expect((await alice.listMovies({ q: 'burst', limit: 5 })).movies).toHaveLength(5)
  })
})
