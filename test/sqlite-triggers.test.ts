import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { createMovieLog } from 'movie-log'
import sqlite3 from 'sqlite3'
import { describe, expect, it } from 'vitest'
import { OLDER_TRIGGERS } from '../src/drivers/sql/rollup'
import { schemaStatements } from '../src/drivers/sql/statements'
import { OLDER_TERMS_TRIGGERS } from '../src/drivers/sql/terms'
import { openSqliteDriver, sqliteDriverOver, sqliteOpener } from '../src/drivers/sqlite/driver'
import { olderTriggers } from '../src/drivers/sqlite/triggers'
import { aMovie } from './_movies'
import { sqliteClients, sqliteUrl } from './_sqlite-clients'
import { addCorpus, expectedStats } from './_store-suite-search'
import { tempFolders } from './_temp'

// The triggers a file keeps are rewritten on open when this version writes them otherwise
// (issue 36: the rollup's delete skipped on a step up), under the same names.
const tempFolder = tempFolders()

/** Runs statements on the file with the sqlite3 package, as another program would. */
function rawFile(path: string) {
  const db = new sqlite3.Database(path)
  return {
    all: (sql: string) =>
      new Promise<Record<string, unknown>[]>((done, fail) =>
        db.all(sql, (error, rows) => (error ? fail(error) : done(rows as never))),
      ),
    run: (sql: string) =>
      new Promise<void>((done, fail) => db.run(sql, (error) => (error ? fail(error) : done()))),
    close: () => new Promise((done) => db.close(done)),
  }
}

const ROLLUP_TRIGGERS =
  "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'movie_log_rollup_%' ORDER BY name"

async function dropAll(url: string, namespace: string) {
  const driver = await openSqliteDriver(url, { namespace, connectTimeoutMs: 1000 })
  await driver.drop('').finally(() => driver.close())
}

/**
 * A file with the corpus added, its rollup triggers then put back as the version before wrote
 * them (the delete on every step, up or down): the file, its triggers as this version writes
 * them (`current`) and as the older one did (`older`).
 */
async function olderFile(library: string) {
  const path = join(tempFolder('movie-log-triggers-'), 'movies.sqlite')
  const url = sqliteUrl(path, library)
  const namespace = `triggers-${randomUUID()}`
  const first = createMovieLog(url, { namespace })
  const added = await addCorpus(first)
  // Counted in, as a version that counted them at each add left them (adds leave them to reads).
  await first.stats()
  await first.close()
  const raw = rawFile(path)
  const current = await raw.all(ROLLUP_TRIGGERS)
  const older = current.map(({ name, sql }) => ({
    name,
    sql: String(sql).replace(/WHERE [^;]*? < 0 AND /, 'WHERE '),
  }))
  expect(older.map(({ sql }) => sql)).not.toEqual(current.map(({ sql }) => sql))
  for (const { name, sql } of older) {
    await raw.run(`DROP TRIGGER ${name}`)
    await raw.run(sql)
  }
  return { url, namespace, added, raw, current, older }
}

describe.each(sqliteClients)('on %s', (library) => {
  it('leaves the triggers of a file this version made as they are: no rewrite at each open', async () => {
    const path = join(tempFolder('movie-log-triggers-'), 'movies.sqlite')
    const open = () =>
      openSqliteDriver(sqliteUrl(path, library), { namespace: 'triggers', connectTimeoutMs: 1000 })
    await (await open()).close()
    const raw = rawFile(path)
    const [before] = await raw.all('PRAGMA schema_version')
    await (await open()).close()
    expect(await raw.all('PRAGMA schema_version')).toEqual([before])
    await raw.close()
    const client = await (await sqliteOpener(library))(path)
    try {
      expect(await olderTriggers(client, schemaStatements('sqlite'), OLDER_TRIGGERS)).toEqual([])
    } finally {
      await client.close()
    }
  })

  it('leaves a trigger in a form it does not know (a newer movie-log’s) as it is', async () => {
    const { url, namespace, added, raw, current } = await olderFile(library)
    const [update] = current.filter(({ name }) => name === 'movie_log_rollup_update')
    const newer = String(update?.sql).replace(' BEGIN\n', ' AND 1 BEGIN\n')
    expect(newer).not.toEqual(update?.sql)
    await raw.run('DROP TRIGGER movie_log_rollup_update')
    await raw.run(newer)
    const log = createMovieLog(url, { namespace })
    expect(await log.stats()).toEqual(expectedStats(added))
    const [kept] = await raw.all(
      "SELECT sql FROM sqlite_master WHERE name = 'movie_log_rollup_update'",
    )
    expect(kept?.sql).toEqual(newer)
    await Promise.all([log.close(), raw.close()])
    await dropAll(url, namespace)
  })

  it('rewrites the rollup triggers an older movie-log made, under their names, and counts on', async () => {
    const { url, namespace, added, raw, current, older } = await olderFile(library)

    const later = createMovieLog(url, { namespace })
    expect(await later.stats()).toEqual(expectedStats(added))
    expect(await raw.all(ROLLUP_TRIGGERS)).toEqual(current)

    // An older movie-log opening the file now creates its triggers if not there: none is added.
    for (const { sql } of older) {
      await raw.run(String(sql).replace('CREATE TRIGGER ', 'CREATE TRIGGER IF NOT EXISTS '))
    }
    expect(await raw.all(ROLLUP_TRIGGERS)).toEqual(current)

    // A step down still takes a rollup row at zero away; a step up counts on.
    const lone = await later.addMovie(aMovie({ screenedDate: '1999-02-03T20:00:00.000' }))
    await later.stats() // counts the add in
    const rollupOf1999 = `SELECT key, n FROM movie_log_rollup WHERE namespace = '${namespace}' AND key LIKE '1999%'`
    expect((await raw.all(rollupOf1999)).length).toBeGreaterThan(0)
    await later.deleteMovie(lone.id)
    expect(await raw.all(rollupOf1999)).toEqual([])
    expect(await later.stats()).toEqual(expectedStats(added))
    await later.deleteMovie(added[0]!.id)
    expect(await later.stats()).toEqual(expectedStats(added.slice(1)))

    await Promise.all([later.close(), raw.close()])
    await dropAll(url, namespace)
  })

  it('rewrites the terms trigger of adds an older movie-log made (no WHEN), under its name', async () => {
    const { url, namespace, added, raw } = await olderFile(library)
    const ADDED_TRIGGER = "SELECT sql FROM sqlite_master WHERE name = 'movie_log_terms_added_v2'"
    const [current] = await raw.all(ADDED_TRIGGER)
    expect(String(current?.sql)).toContain(' WHEN NEW.terms IS NOT NULL BEGIN')
    await raw.run('DROP TRIGGER movie_log_terms_added_v2')
    await raw.run(String(OLDER_TERMS_TRIGGERS[0]).replace(' IF NOT EXISTS', ''))
    expect(await raw.all(ADDED_TRIGGER)).not.toEqual([current])

    const later = createMovieLog(url, { namespace })
    const lone = await later.addMovie(aMovie({ screenedDate: '1999-02-03T20:00:00.000' }))
    expect(await later.stats()).toEqual(expectedStats([...added, lone]))
    expect(await raw.all(ADDED_TRIGGER)).toEqual([current])
    await Promise.all([later.close(), raw.close()])
    await dropAll(url, namespace)
  })

  it('opens an older file from two drivers at once, the triggers rewritten and counting right', async () => {
    const { url, namespace, added, raw, current } = await olderFile(library)

    // Two drivers, two connections, opening at once: both find the triggers to rewrite.
    const open = () => openSqliteDriver(url, { namespace, connectTimeoutMs: 1000 })
    const drivers = await Promise.all([open(), open()])
    expect(await raw.all(ROLLUP_TRIGGERS)).toEqual(current)
    await Promise.all(drivers.map((driver) => driver.close()))
    const later = createMovieLog(url, { namespace })
    expect(await later.stats()).toEqual(expectedStats(added))
    await Promise.all([later.close(), raw.close()])
    await dropAll(url, namespace)
  })
})

it("leaves the triggers of a sqlite3 Database of the caller's as they are", async () => {
  const { url, namespace, added, raw, older } = await olderFile('sqlite3')
  const db = new sqlite3.Database(url.slice('sqlite://'.length).replace(/\?client=.*$/, ''))
  const driver = await sqliteDriverOver(db, { namespace })
  await driver.close()
  await new Promise((done) => db.close(done))
  expect(await raw.all(ROLLUP_TRIGGERS)).toEqual(older)
  const log = createMovieLog(url, { namespace })
  expect(await log.stats()).toEqual(expectedStats(added))
  await Promise.all([log.close(), raw.close()])
  await dropAll(url, namespace)
})
