import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { createMovieLog, importMovies } from 'movie-log'
import sqlite3 from 'sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { OLDER_HISTORY_TRIGGERS, SQLITE_HISTORY_OF_EDITS } from '../src/drivers/sql/statements'
import { openSqliteDriver, sqliteDriverOver } from '../src/drivers/sqlite/driver'
import { expectOthersAddsCountedIn, failingCountIn, threeRows } from './_count-in'
import { aMovie } from './_movies'
import { sqliteClients, sqliteUrl } from './_sqlite-clients'
import { tempFolders } from './_temp'

// Issue 36: on SQLite an add leaves its search and statistics terms to the next search or
// count (as the memory store does), about half of an add's cost; the read counts them in, and
// the history records no change for that.
const tempFolder = tempFolders()
const closing: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()))
})

/** Reads the file with the sqlite3 package, as another program would. */
function rawFile(path: string) {
  const db = new sqlite3.Database(path)
  closing.push(() => new Promise((done) => db.close(done)))
  const all = (sql: string, ...parameters: unknown[]) =>
    new Promise<Record<string, unknown>[]>((done, fail) =>
      db.all(sql, parameters, (error, rows) => (error ? fail(error) : done(rows as never))),
    )
  const count = async (sql: string, ...parameters: unknown[]) =>
    Number((await all(sql, ...parameters))[0]?.n)
  return { all, count }
}

function aFile(library: string) {
  const path = join(tempFolder('movie-log-terms-'), 'movies.sqlite')
  const namespace = `terms-${randomUUID()}`
  const open = () => {
    const log = createMovieLog(sqliteUrl(path, library), { namespace })
    closing.push(() => log.close())
    return log
  }
  const uncounted = `SELECT count(*) AS n FROM movie_log_movies WHERE namespace = '${namespace}' AND terms IS NULL`
  const words = `SELECT count(*) AS n FROM movie_log_words WHERE namespace = '${namespace}'`
  const history = `SELECT type FROM movie_log_changes WHERE namespace = '${namespace}' ORDER BY seq`
  return { path, namespace, open, uncounted, words, history }
}

describe.each(sqliteClients)('on %s', (library) => {
  it('leaves an add its terms to the next read, which counts them in and records no change', async () => {
    const file = aFile(library)
    const log = file.open()
    const heat = await log.addMovie(aMovie())
    const ran = await log.addMovie(aMovie({ title: 'Ran', notes: 'Castle burning.' }))
    const raw = rawFile(file.path)
    expect(await raw.count(file.uncounted)).toBe(2)
    expect(await raw.count(file.words)).toBe(0)

    expect((await log.listMovies({ q: 'castle', limit: 10 })).movies).toEqual([ran])
    expect(await raw.count(file.uncounted)).toBe(0)
    expect(await raw.count(file.words)).toBeGreaterThan(0)
    // Counting in is no edit: the history holds the two adds alone, and a feed sees nothing more.
    expect(await raw.all(file.history)).toEqual([{ type: 'added' }, { type: 'added' }])

    // Counted once: an edit and a delete count out what the read counted in.
    await log.updateMovie(heat.id, { notes: 'The diner scene.' })
    await log.deleteMovie(ran.id)
    const stats = await log.stats()
    expect(stats.total).toBe(1)
    expect((await log.listMovies({ q: 'diner', limit: 10 })).movies.map((m) => m.id)).toEqual([
      heat.id,
    ])
    expect((await log.listMovies({ q: 'castle', limit: 10 })).movies).toEqual([])
    expect((await raw.all(file.history)).map((row) => row.type)).toEqual([
      'added',
      'added',
      'updated',
      'deleted',
    ])
  })

  it("counts in another process's adds before this one's search or count", async () => {
    const file = aFile(library)
    const [writer, reader] = [file.open(), file.open()]
    await expectOthersAddsCountedIn(writer, reader)
  })

  it('leaves nothing to count after an import', async () => {
    const file = aFile(library)
    const log = file.open()
    const rows = Array.from({ length: 150 }, (_, n) => ({
      line: n + 1,
      movie: aMovie({ title: `Heat ${n}` }),
    }))
    const report = await importMovies(log, rows)
    expect(report.added).toBe(150)
    expect(await rawFile(file.path).count(file.uncounted)).toBe(0)
  })

  it('reports an import whose counting in failed, and leaves the count to the next read', async () => {
    const file = aFile(library)
    const driver = await openSqliteDriver(sqliteUrl(file.path, library), {
      namespace: file.namespace,
      connectTimeoutMs: 1000,
    })
    const failing = failingCountIn(driver)
    const log = createMovieLog({ kind: 'sqlite', remote: false, open: async () => failing })
    closing.push(() => log.close())
    const reported: unknown[] = []
    const rows = threeRows()
    const report = await importMovies(log, rows, { onRow: (row) => reported.push(row) })
    expect(report.added).toBe(3)
    expect(reported).toHaveLength(3)
    expect(await rawFile(file.path).count(file.uncounted)).toBe(3)
    expect((await log.listMovies({ q: 'alien', limit: 10 })).movies.map((m) => m.title)).toEqual([
      'Alien',
    ])
    expect(await rawFile(file.path).count(file.uncounted)).toBe(0)
  })

  it('rewrites the history trigger an older movie-log made, which took counting in for an edit', async () => {
    const file = aFile(library)
    const first = file.open()
    await first.addMovie(aMovie())
    await first.close()
    const db = new sqlite3.Database(file.path)
    const run = (sql: string) =>
      new Promise<void>((done, fail) => db.exec(sql, (error) => (error ? fail(error) : done())))
    await run('DROP TRIGGER movie_log_changes_updated')
    await run(String(OLDER_HISTORY_TRIGGERS[0]))
    await new Promise((done) => db.close(done))

    const later = file.open()
    const added = await later.addMovie(aMovie({ title: 'Ran' }))
    expect((await later.listMovies({ q: 'ran', limit: 10 })).movies).toEqual([added])
    const raw = rawFile(file.path)
    const [trigger] = await raw.all(
      "SELECT sql FROM sqlite_master WHERE name = 'movie_log_changes_updated'",
    )
    expect(trigger?.sql).toBe(SQLITE_HISTORY_OF_EDITS.replace(' IF NOT EXISTS', ''))
    expect((await raw.all(file.history)).map((row) => row.type)).toEqual(['added', 'added'])
  })
})

it("writes an add's terms on a caller's Database, whose triggers the driver leaves as they are, and counts in others'", async () => {
  const file = aFile('sqlite3')
  const db = new sqlite3.Database(file.path)
  const driver = await sqliteDriverOver(db, { namespace: file.namespace })
  closing.push(() => new Promise((done) => db.close(done)))
  const log = createMovieLog({ kind: 'sqlite', remote: true, open: async () => driver })
  closing.push(() => log.close())
  await log.addMovie(aMovie())
  expect(await rawFile(file.path).count(file.uncounted)).toBe(0)
  expect((await log.stats()).total).toBe(1) // its first read behind it
  // The driver of a file of its own leaves them to the reads.
  const own = await openSqliteDriver(sqliteUrl(file.path, 'sqlite3'), {
    namespace: file.namespace,
    connectTimeoutMs: 1000,
  })
  closing.push(() => own.close())
  const ran = { ...aMovie({ title: 'Ran' }), id: randomUUID() } as never
  await own.log('').put(ran)
  expect(await rawFile(file.path).count(file.uncounted)).toBe(1)
  // Its reads count in what a driver of a file of its own left, as any read does.
  expect((await log.listMovies({ q: 'ran', limit: 10 })).movies).toEqual([ran])
  expect(await rawFile(file.path).count(file.uncounted)).toBe(0)
})
