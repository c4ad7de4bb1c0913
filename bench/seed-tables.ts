/**
 * Fills a SQL store's movie table (the SQLite and PostgreSQL drivers' `movie_log_movies`) with
 * seeded movies, 500 rows a statement, exactly as the drivers store them: one POST per movie
 * would take minutes at 100k on SQLite, which syncs each commit.
 */
import pg from 'pg'
import sqlite3 from 'sqlite3'
import { SOLE_OWNER } from '../src/core/driver'
import { createUuidV7Generator } from '../src/core/id'
import type { Movie } from '../src/core/movie'
import { termsOf } from '../src/core/tallies'
import { openPostgresDriver } from '../src/drivers/postgres/driver'
import { movieText } from '../src/drivers/sql/driver'
import { openSqliteDriver } from '../src/drivers/sqlite/driver'
import { seededMovie } from './seed'

const generateId = createUuidV7Generator()

/** Inserts `count` movies (numbered from `first`) for the one owner of `namespace`. */
export function seedSqlTables(
  storeUrl: string,
  count: number,
  first = 0,
  namespace = 'movie-log',
  make: (n: number) => Omit<Movie, 'id'> = seededMovie,
): Promise<void> {
  return seedSqlOwners(storeUrl, namespace, [[SOLE_OWNER, count]], first, make)
}

/**
 * Inserts movies for many owners of `namespace` (`[owner, count]` each, numbered from `first` on
 * across them all), 500 rows a statement whatever the owners: 10,000 owners of 3 movies are 60
 * statements, not 10,000.
 */
export async function seedSqlOwners(
  storeUrl: string,
  namespace: string,
  owners: Iterable<readonly [string, number]>,
  first = 0,
  make: (n: number) => Omit<Movie, 'id'> = seededMovie,
): Promise<void> {
  const postgres = /^postgres(ql)?:/.test(storeUrl)
  // The driver creates the tables; the rows go in through a connection of the seed's own.
  const open = postgres ? openPostgresDriver : openSqliteDriver
  await (await open(storeUrl, { namespace, connectTimeoutMs: 2000 })).close()
  const run = postgres ? postgresRunner(storeUrl) : await sqliteRunner(storeUrl)
  const insert = async (rows: unknown[]) => {
    const values = Array.from({ length: rows.length / 6 }, (_, row) => {
      const at = row * 6
      return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6})`
    })
    // With its terms, as the drivers write them: the triggers count them (search, statistics).
    await run.query(
      `INSERT INTO movie_log_movies (namespace, owner, id, screened, movie, terms) VALUES ${values.join(', ')}`,
      rows,
    )
  }
  try {
    let n = first
    let rows: unknown[] = []
    for (const [owner, count] of owners) {
      for (let made = 0; made < count; made++) {
        const movie = { id: generateId(), ...make(n++) }
        const terms = JSON.stringify(termsOf(movie))
        rows.push(namespace, owner, movie.id, movie.screenedDate, movieText(movie), terms)
        if (rows.length === 500 * 6) {
          await insert(rows)
          rows = []
        }
      }
    }
    if (rows.length > 0) await insert(rows)
    // Statistics for the planner, as autovacuum would gather them in time.
    if (postgres) {
      for (const table of [
        'movie_log_movies',
        'movie_log_words',
        'movie_log_tallies',
        'movie_log_repeats',
        'movie_log_rollup',
      ]) {
        await run.query(`ANALYZE ${table}`, [])
      }
    }
  } finally {
    await run.close()
  }
}

/** Deletes every row of `namespace` at once, whatever its owners: a bench's clean-up. */
export async function clearSqlNamespace(storeUrl: string, namespace: string): Promise<void> {
  const postgres = /^postgres(ql)?:/.test(storeUrl)
  const run = postgres ? postgresRunner(storeUrl) : await sqliteRunner(storeUrl)
  try {
    await run.query('DELETE FROM movie_log_movies WHERE namespace = $1', [namespace])
    await run.query('DELETE FROM movie_log_records WHERE namespace = $1', [namespace])
    const tables = ['movie_log_words', 'movie_log_tallies', 'movie_log_repeats', 'movie_log_rollup']
    for (const table of tables) {
      await run.query(`DELETE FROM ${table} WHERE namespace = $1`, [namespace])
    }
  } finally {
    await run.close()
  }
}

function postgresRunner(url: string) {
  const pool = new pg.Pool({ connectionString: url })
  return {
    query: (sql: string, values: unknown[]) => pool.query(sql, values),
    close: () => pool.end(),
  }
}

async function sqliteRunner(url: string) {
  const db = await new Promise<sqlite3.Database>((done, fail) => {
    const opened = new sqlite3.Database(url.slice('sqlite://'.length), (error) =>
      error ? fail(error) : done(opened),
    )
  })
  return {
    query: (sql: string, values: unknown[]) =>
      new Promise<void>((done, fail) =>
        db.run(sql.replace(/\$(\d+)/g, '?$1'), values, (error) => (error ? fail(error) : done())),
      ),
    close: () => new Promise<void>((done) => db.close(() => done())),
  }
}
