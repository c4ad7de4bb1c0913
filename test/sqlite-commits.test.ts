// Issue 36: group commit on SQLite. Writes that arrive together share one commit; a write that
// fails alone fails alone; a commit that fails fails only its writes; and a diary written on
// one library (node:sqlite, bun:sqlite, sqlite3) opens on the other. Issue 55: a commit holds
// the write lock no longer than its bound, and leaves the rest of its group to the next.
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { createMovieLog } from 'movie-log'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Movie } from '../src/core/movie'
import { loadBuiltinSqlite } from '../src/drivers/sqlite/builtin'
import { commitSteps, type SqliteClient, type SqlWrite } from '../src/drivers/sqlite/client'
import { openSqliteDriver } from '../src/drivers/sqlite/driver'
import { createGroupCommit, QUIET_MS } from '../src/drivers/sqlite/group'
import { loadSqlite3, openSqlite3Client } from '../src/drivers/sqlite/sqlite3'
import { aMovie } from './_movies'
import { sqliteClients, sqliteUrl } from './_sqlite-clients'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A client of the library named, on a new file, with a table `t` of unique values. */
async function openClient(name: string): Promise<SqliteClient> {
  const file = join(tempFolder('movie-log-sqlite-commits-'), 'commits.sqlite')
  const setup = ['PRAGMA journal_mode = WAL']
  const builtin = name === 'builtin' ? await loadBuiltinSqlite() : undefined
  const client = builtin ? builtin(file) : await openSqlite3Client(await loadSqlite3(), file, setup)
  cleanups.push(() => client.close())
  for (const statement of setup) await client.query(statement, [])
  await client.query('CREATE TABLE t (v TEXT PRIMARY KEY)', [])
  return client
}

const insert = (value: string): SqlWrite => [['INSERT INTO t (v) VALUES (?1) RETURNING v', [value]]]
const values = async (client: SqliteClient) =>
  (await client.query('SELECT v FROM t ORDER BY v', [])).map((row) => row.v)

// Commits held as long as they take, where a test is of the grouping: on a busy machine a
// group of a few writes can pass the bound on holding the lock, which is tested on its own.
const UNBOUNDED = { holdMs: Number.POSITIVE_INFINITY }

/** A client that counts its commits and hands them to `real`. */
function counted(real: SqliteClient) {
  const sizes: number[] = []
  const client: SqliteClient = {
    ...real,
    commit: (writes, holdMs) => {
      sizes.push(writes.length)
      return real.commit(writes, holdMs)
    },
  }
  return { client, sizes }
}

describe.each(sqliteClients)('group commit on %s', (name) => {
  it('commits writes that arrive together in one commit, each answered with its own rows', async () => {
    const { client, sizes } = counted(await openClient(name))
    const group = createGroupCommit(client, UNBOUNDED)
    const written = await Promise.all(
      Array.from({ length: 32 }, (_, at) => group.write(insert(`v${at}`))),
    )
    expect(sizes).toEqual([32])
    expect(written.map((rows) => rows[0]?.v)).toEqual(
      Array.from({ length: 32 }, (_, at) => `v${at}`),
    )
    expect(await values(client)).toHaveLength(32)
    // One at a time, each its own commit: nothing waits for company that never comes.
    for (const value of ['w1', 'w2']) await group.write(insert(value))
    expect(sizes).toEqual([32, 1, 1])
  })

  it('is idle once no write waits and none was committed for QUIET_MS', async () => {
    // Issue 62: the background count-in waits for an idle store; a server taking adds as fast
    // as they come must never look idle between two commits.
    vi.useFakeTimers({ toFake: ['performance'] })
    cleanups.push(async () => vi.useRealTimers())
    const group = createGroupCommit(await openClient(name), UNBOUNDED)
    expect(group.idle()).toBe(true)
    const written = group.write(insert('a'))
    expect(group.idle()).toBe(false)
    await written
    await group.drained()
    expect(group.idle()).toBe(false)
    vi.advanceTimersByTime(QUIET_MS - 1)
    expect(group.idle()).toBe(false)
    vi.advanceTimersByTime(1)
    expect(group.idle()).toBe(true)
  })

  it('fails a write that fails alone, and commits the others of its group', async () => {
    const { client, sizes } = counted(await openClient(name))
    const group = createGroupCommit(client, UNBOUNDED)
    await group.write(insert('taken'))
    const outcomes = await Promise.allSettled([
      group.write(insert('a')),
      group.write(insert('taken')),
      group.write([...insert('b'), ['SELEC oops', []]]),
      group.write(insert('c')),
    ])
    expect(sizes).toEqual([1, 4])
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ])
    expect(String((outcomes[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/)
    // The failed write's first statement ('b') is undone with it.
    expect(await values(client)).toEqual(['a', 'c', 'taken'])
  })

  it('leaves the writes after the bound on holding the lock to the next commit, each stored once', async () => {
    const { client, sizes } = counted(await openClient(name))
    // Held 0 ms: every commit passes it after its first write, whatever the machine's speed.
    const group = createGroupCommit(client, { holdMs: 0 })
    const written = await Promise.all(
      ['a', 'b', 'c', 'd'].map((value) => group.write(insert(value))),
    )
    // Each commit offered what was left of the group, and took one.
    expect(sizes).toEqual([4, 3, 2, 1])
    expect(written).toEqual([[{ v: 'a' }], [{ v: 'b' }], [{ v: 'c' }], [{ v: 'd' }]])
    expect(await values(client)).toEqual(['a', 'b', 'c', 'd'])
  })

  it('fails every write of a commit that fails, and commits the next group', async () => {
    const client = await openClient(name)
    let failures = 1
    const failingOnce: SqliteClient = {
      ...client,
      commit: (writes) => {
        if (failures-- > 0) {
          return Promise.reject(
            Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }),
          )
        }
        return client.commit(writes)
      },
    }
    const group = createGroupCommit(failingOnce)
    const failed = await Promise.allSettled([group.write(insert('x')), group.write(insert('y'))])
    expect(failed.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected'])
    expect(await group.write(insert('z'))).toEqual([{ v: 'z' }])
    expect(await values(client)).toEqual(['z'])
  })

  it('undoes the whole commit when the disk is full, and commits again once there is room', async () => {
    const client = await openClient(name)
    const group = createGroupCommit(client)
    await group.write(insert('first'))
    const [{ page_count: pages } = {}] = await client.query('PRAGMA page_count', [])
    const grow = (limit: number) => client.commit([[[`PRAGMA max_page_count = ${limit}`, []]]])
    if (name === 'sqlite3') {
      // Two connections: the limit holds per connection, so set it where commits run.
      await grow(Number(pages))
    } else await client.query(`PRAGMA max_page_count = ${pages}`, [])
    const outcomes = await Promise.allSettled([
      group.write(insert('small')),
      group.write(insert('x'.repeat(20_000))),
    ])
    expect(outcomes.map((outcome) => outcome.status)).toContain('rejected')
    const full = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult
    expect((full.reason as { code?: string }).code).toBe('SQLITE_FULL')
    if (name === 'sqlite3') await grow(Number(pages) * 1000)
    else await client.query(`PRAGMA max_page_count = ${Number(pages) * 1000}`, [])
    await group.write(insert('after'))
    expect(await values(client)).toEqual(expect.arrayContaining(['after', 'first']))
  })
})

describe('the statements of a commit', () => {
  /** Runs `commitSteps` to its end, each statement answered at once, the clock read from `clock`. */
  function run(writes: SqlWrite[], holdMs: number, clock: number[]) {
    const ran: string[] = []
    const steps = commitSteps(writes, holdMs, () => clock.shift() ?? Number.NaN)
    let next = steps.next()
    while (!next.done) {
      ran.push(next.value[1][0] === undefined ? next.value[0] : String(next.value[1][0]))
      next = steps.next([])
    }
    return { ran, outcomes: next.value, clockLeft: clock.length }
  }

  it('takes writes until the lock has been held the bound, then commits those', () => {
    // The lock taken at 10; before each write after the first, 12 (held 2), then 15 (held 5).
    const { ran, outcomes, clockLeft } = run(
      [insert('a'), insert('b'), insert('c'), insert('d')],
      5,
      [10, 12, 15],
    )
    expect(ran).toEqual(['BEGIN IMMEDIATE', 'a', 'b', 'COMMIT'])
    expect(outcomes).toHaveLength(2)
    expect(clockLeft).toBe(0)
  })

  it('takes the first write however long the lock was waited for, and every write without a bound', () => {
    expect(run([insert('a'), insert('b')], 0, [0, 0]).ran).toEqual([
      'BEGIN IMMEDIATE',
      'a',
      'COMMIT',
    ])
    expect(run([insert('a'), insert('b')], Number.POSITIVE_INFINITY, [0, 1e9]).ran).toEqual([
      'BEGIN IMMEDIATE',
      'a',
      'b',
      'COMMIT',
    ])
  })
})

describe.skipIf(sqliteClients.length < 2)('one diary on each library', () => {
  it('opens a diary written on one library with the other, movies, versions and history', async () => {
    const file = join(tempFolder('movie-log-sqlite-moves-'), 'movies.sqlite')
    const [first, second] = sqliteClients as [string, string]
    const adds = (count: number) =>
      Array.from({ length: count }, () => ({ ...aMovie(), notes: randomUUID() }))
    const written = createMovieLog(sqliteUrl(file, first))
    const kept: Movie[] = []
    for (const input of adds(3)) kept.push(await written.addMovie(input))
    kept[1] = await written.updateMovie((kept[1] as Movie).id, { notes: 'edited' })
    await written.close()

    const read = createMovieLog(sqliteUrl(file, second))
    expect(await read.listMovies()).toEqual({ movies: kept, nextCursor: null })
    kept.push(await read.addMovie(adds(1)[0] as Parameters<typeof read.addMovie>[0]))
    await read.close()

    const driver = await openSqliteDriver(sqliteUrl(file, first), {
      namespace: 'movie-log',
      connectTimeoutMs: 1000,
    })
    cleanups.push(() => driver.close())
    const { changes } = await driver.log('').changesAfter(undefined, 10)
    expect(changes.map((change) => [change.type, change.movie.id])).toEqual([
      ['added', kept[0]?.id],
      ['added', kept[1]?.id],
      ['added', kept[2]?.id],
      ['updated', kept[1]?.id],
      ['added', kept[3]?.id],
    ])
  })
})
