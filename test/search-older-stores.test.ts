import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { createMovieLog } from 'movie-log'
import sqlite3 from 'sqlite3'
import { expect, it } from 'vitest'
import { schemaStatements } from '../src/drivers/sql/statements'
import { openSqliteDriver } from '../src/drivers/sqlite/driver'
import { aMovie } from './_movies'
import { addCorpus, expectedStats, heatPages } from './_store-suite-search'
import { tempFolders } from './_temp'

// A database written by a movie-log before search (issue 39): rows without terms, counted once
// on the first search or count, then kept by the triggers like any other.
const tempFolder = tempFolders()

/** A log with the corpus on a new file, and the file altered by `alter` as an older version left it. */
async function olderFile(alter: (run: (sql: string) => Promise<void>) => Promise<void>) {
  const path = join(tempFolder('movie-log-older-'), 'movies.sqlite')
  const url = `sqlite://${path}`
  const namespace = `older-${randomUUID()}`
  const log = createMovieLog(url, { namespace })
  const added = await addCorpus(log)
  // Counted in, as a version that counted them at each add left them (adds leave them to reads).
  await log.stats()
  const db = new sqlite3.Database(path)
  const run = (sql: string) =>
    new Promise<void>((done, fail) => db.run(sql, (error) => (error ? fail(error) : done())))
  await alter(run)
  await new Promise((done) => db.close(done))
  return { url, namespace, log, added }
}

/** The file as the version before the rollup left it: counters, no rollup table nor triggers. */
async function beforeTheRollup(run: (sql: string) => Promise<void>) {
  for (const event of ['insert', 'update', 'delete']) {
    await run(`DROP TRIGGER movie_log_rollup_${event}`)
  }
  await run('DROP TABLE movie_log_rollup')
}

it('counts the movies an older movie-log wrote, on the first search, once', async () => {
  // As the older version left them: the same rows, no terms, nothing counted.
  const { url, namespace, log, added } = await olderFile(async (run) => {
    await run('UPDATE movie_log_movies SET terms = NULL')
    for (const table of ['movie_log_words', 'movie_log_tallies', 'movie_log_repeats']) {
      await run(`DELETE FROM ${table}`)
    }
  })
  await log.close()

  const later = createMovieLog(url, { namespace })
  expect((await later.listMovies({ q: 'cinema para' })).movies.map((m) => m.title)).toEqual([
    'Cinéma Paradiso',
  ])
  expect(await later.stats()).toEqual(expectedStats(added))
  // Counted once: a second log on the store finds them counted, and edits keep them right.
  await later.deleteMovie(added[0]!.id)
  const again = createMovieLog(url, { namespace })
  expect(await again.stats()).toEqual(expectedStats(added.slice(1)))
  await Promise.all([later.close(), again.close()])
  const driver = await openSqliteDriver(url, { namespace, connectTimeoutMs: 1000 })
  await driver.drop('').finally(() => driver.close())
})

it('rolls up the counters of a store made before the yearly rollup, once, on open', async () => {
  const { url, namespace, log, added } = await olderFile(beforeTheRollup)
  await log.close()

  const later = createMovieLog(url, { namespace })
  expect(await later.stats()).toEqual(expectedStats(added))
  expect(await later.stats({ from: '2024', to: '2024' })).toEqual(
    expectedStats(added, '2024-01', '2024-12'),
  )
  // Filled once: another opener adds nothing, and writes go on counting.
  const again = createMovieLog(url, { namespace })
  await again.deleteMovie(added[0]!.id)
  expect(await later.stats()).toEqual(expectedStats(added.slice(1)))
  await Promise.all([later.close(), again.close()])
  const driver = await openSqliteDriver(url, { namespace, connectTimeoutMs: 1000 })
  await driver.drop('').finally(() => driver.close())
})

it('fills the rollup from the counters alone, whatever writers did between its triggers and the fill', async () => {
  // Another opener made the rollup's table and triggers, and a writer took the one movie of a
  // year away before the fill: the triggers left that year's rollup rows at -1.
  const { url, namespace, log, added } = await olderFile(beforeTheRollup)
  await log.close()
  const year = (m: { screenedDate: string }) => m.screenedDate.slice(0, 4)
  const lone = added.find((m) => added.filter((other) => year(other) === year(m)).length === 1)
  expect(lone).toBeDefined()
  const db = new sqlite3.Database(url.slice('sqlite://'.length))
  const run = (sql: string, ...parameters: unknown[]) =>
    new Promise<Record<string, unknown>[]>((done, fail) =>
      db.all(sql, parameters, (error, rows) => (error ? fail(error) : done(rows as never))),
    )
  const rollup = schemaStatements('sqlite').filter((statement) =>
    /^CREATE (TABLE|TRIGGER) IF NOT EXISTS movie_log_rollup/.test(statement),
  )
  for (const statement of rollup) await run(statement)
  await run('DELETE FROM movie_log_movies WHERE namespace = ? AND id = ?', namespace, lone?.id)
  expect(await run('SELECT key, n FROM movie_log_rollup WHERE n < 0')).not.toEqual([])

  const later = createMovieLog(url, { namespace })
  const left = added.filter((m) => m !== lone)
  expect(await later.stats()).toEqual(expectedStats(left))
  expect(await run('SELECT key, n FROM movie_log_rollup WHERE n < 0')).toEqual([])
  await Promise.all([later.close(), new Promise((done) => db.close(done))])
  const driver = await openSqliteDriver(url, { namespace, connectTimeoutMs: 1000 })
  await driver.drop('').finally(() => driver.close())
})

it('gives the words an older movie-log wrote their screening, once, and its triggers way', async () => {
  // As the version before search pages left the file: words without a screening, its triggers.
  const { url, namespace, log, added } = await olderFile(async (run) => {
    await run('UPDATE movie_log_words SET screened = NULL')
    for (const event of ['added', 'updated', 'deleted']) {
      await run(`DROP TRIGGER movie_log_terms_${event}_v2`)
    }
    await run(`CREATE TRIGGER movie_log_terms_added AFTER INSERT ON movie_log_movies BEGIN
INSERT INTO movie_log_words (namespace, owner, word, id) SELECT NEW.namespace, NEW.owner, value, NEW.id FROM json_each(NEW.terms, '$.words') WHERE true ON CONFLICT DO NOTHING;
END`)
  })
  await log.close()

  const later = createMovieLog(url, { namespace })
  const { heats, filtered } = heatPages(later)
  expect((await heats('screenedDate')).movies).toEqual(filtered(added))
  // Written after: by this version's triggers, in its place.
  const fourth = await later.addMovie(
    aMovie({ title: 'Heat', screenedDate: '2024-06-01T12:00:00.000' }),
  )
  expect((await heats('screenedDate')).movies).toEqual(filtered([fourth, ...added]))
  expect((await heats('-screenedDate')).movies).toEqual(filtered([...added].reverse()))
  const db = new sqlite3.Database(url.slice('sqlite://'.length))
  const triggers = await new Promise<unknown[]>((done, fail) =>
    db.all("SELECT name FROM sqlite_master WHERE name = 'movie_log_terms_added'", (error, rows) =>
      error ? fail(error) : done(rows),
    ),
  )
  await new Promise((done) => db.close(done))
  expect(triggers).toEqual([])
  await later.close()
  const driver = await openSqliteDriver(url, { namespace, connectTimeoutMs: 1000 })
  await driver.drop('').finally(() => driver.close())
})
