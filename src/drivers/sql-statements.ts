/**
 * The SQL of the SQLite and PostgreSQL drivers, once for both: the schema and every statement,
 * written with PostgreSQL's `$n` placeholders (SQLite reads them as `?n`, the same numbers).
 *
 * Two tables, shared by every namespace and owner of a database:
 * - movie_log_movies(namespace, owner, id, screened, movie): a movie as its JSON text, keyed by
 *   (namespace, owner, id), so a page in the order added is a range of the primary key; an
 *   index on (namespace, owner, screened, id) makes a page by date a range too. Either reads
 *   only the rows it returns, and an owner's rows are one range (what `drop` deletes).
 * - movie_log_records(namespace, owner, key, value, expires): idempotency claims and deletions,
 *   with an expiry (ms since the epoch); expired rows are ignored, and purged now and then
 *   through the index on `expires`.
 * PostgreSQL compares the text columns in "C" order (bytes, as JavaScript compares ids),
 * whatever the database's locale; SQLite's default (BINARY) is that order already.
 */

/** The two databases the SQL drivers speak. */
export type SqlDialect = 'sqlite' | 'postgres'

/** Expired records deleted at most per purge: a purge is one short statement. */
export const PURGE_BATCH = 500

const MOVIES = 'movie_log_movies'
const RECORDS = 'movie_log_records'

/** `CREATE ... IF NOT EXISTS`, in order: safe to run again, and by two processes at once. */
export function schemaStatements(dialect: SqlDialect): string[] {
  const text = dialect === 'postgres' ? 'TEXT COLLATE "C" NOT NULL' : 'TEXT NOT NULL'
  const integer = dialect === 'postgres' ? 'BIGINT NOT NULL' : 'INTEGER NOT NULL'
  return [
    `CREATE TABLE IF NOT EXISTS ${MOVIES} (namespace ${text}, owner ${text}, id ${text}, screened ${text}, movie TEXT NOT NULL, PRIMARY KEY (namespace, owner, id))`,
    `CREATE INDEX IF NOT EXISTS ${MOVIES}_screened ON ${MOVIES} (namespace, owner, screened, id)`,
    `CREATE TABLE IF NOT EXISTS ${RECORDS} (namespace ${text}, owner ${text}, key ${text}, value TEXT NOT NULL, expires ${integer}, PRIMARY KEY (namespace, owner, key))`,
    `CREATE INDEX IF NOT EXISTS ${RECORDS}_expires ON ${RECORDS} (expires)`,
  ]
}

/** Every statement a driver runs. The first two parameters are namespace and owner (but in `owners`). */
export interface SqlStatements {
  /** $3 id, $4 screened, $5 movie: inserts unless the id is taken; returns a row when it did. */
  put: string
  /** $3 id. */
  get: string
  /** $3 after ('' for the first page), $4 limit. */
  listAfter: string
  /** Pages by date, `[descending][resuming]`: see `datePage` for their parameters. */
  byDate: [[string, string], [string, string]]
  /** $3 id, $4 expected movie text, $5 next screened, $6 next movie text: a row when it did. */
  replace: string
  /** $3 id, $4 expected movie text: a row when it did. */
  remove: string
  /** $3 key, $4 value, $5 expires, $6 now: inserts, or replaces an expired record; a row when it did. */
  create: string
  /** $3 key, $4 now. */
  read: string
  /** $3 key, $4 value, $5 expires. */
  write: string
  dropMovies: string
  dropRecords: string
  /**
   * $1 namespace, $2 after ('' from the first: the one diary's owner is never listed), $3
   * limit: the owners with a movie, in byte order, read along the primary key's first columns.
   */
  owners: string
  /** $1 now: deletes at most PURGE_BATCH expired records, of any namespace and owner. */
  purge: string
  /** The LIMIT parameter that means no limit. */
  noLimit: number | null
}

const owned = 'namespace = $1 AND owner = $2'

export function sqlStatements(dialect: SqlDialect): SqlStatements {
  const movie = `SELECT movie FROM ${MOVIES} WHERE ${owned}`
  const statements: SqlStatements = {
    put: `INSERT INTO ${MOVIES} (namespace, owner, id, screened, movie) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (namespace, owner, id) DO NOTHING RETURNING id`,
    get: `${movie} AND id = $3`,
    listAfter: `${movie} AND id > $3 ORDER BY id LIMIT $4`,
    byDate: [
      [datePage(movie, false, false), datePage(movie, false, true)],
      [datePage(movie, true, false), datePage(movie, true, true)],
    ],
    replace: `UPDATE ${MOVIES} SET screened = $5, movie = $6 WHERE ${owned} AND id = $3 AND movie = $4 RETURNING id`,
    remove: `DELETE FROM ${MOVIES} WHERE ${owned} AND id = $3 AND movie = $4 RETURNING id`,
    create: `INSERT INTO ${RECORDS} AS r (namespace, owner, key, value, expires) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (namespace, owner, key) DO UPDATE SET value = excluded.value, expires = excluded.expires WHERE r.expires <= $6 RETURNING key`,
    read: `SELECT value FROM ${RECORDS} WHERE ${owned} AND key = $3 AND expires > $4`,
    write: `INSERT INTO ${RECORDS} (namespace, owner, key, value, expires) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (namespace, owner, key) DO UPDATE SET value = excluded.value, expires = excluded.expires`,
    dropMovies: `DELETE FROM ${MOVIES} WHERE ${owned}`,
    dropRecords: `DELETE FROM ${RECORDS} WHERE ${owned}`,
    owners: `SELECT DISTINCT owner FROM ${MOVIES} WHERE namespace = $1 AND owner > $2 ORDER BY owner LIMIT $3`,
    purge: `DELETE FROM ${RECORDS} WHERE (namespace, owner, key) IN (SELECT namespace, owner, key FROM ${RECORDS} WHERE expires <= $1 LIMIT ${PURGE_BATCH})`,
    noLimit: dialect === 'postgres' ? null : -1,
  }
  if (dialect === 'postgres') return statements
  const sqlite = (sql: string) => sql.replace(/\$(\d+)/g, '?$1')
  const { byDate, noLimit, ...rest } = statements
  return {
    ...(Object.fromEntries(Object.entries(rest).map(([name, sql]) => [name, sqlite(sql)])) as Omit<
      SqlStatements,
      'byDate' | 'noLimit'
    >),
    byDate: byDate.map((pair) => pair.map(sqlite)) as SqlStatements['byDate'],
    noLimit,
  }
}

/**
 * A page by (screened, id) up to $3 (the far bound: `to` ascending, `from` descending, inclusive),
 * $4 limit, from $5 (the near bound) or, resuming, after ($5 date, $6 id). Each bound is on the
 * index's own columns, the resume point a row value, so the database seeks to where the page
 * starts and reads only the rows it returns.
 */
function datePage(select: string, descending: boolean, resuming: boolean): string {
  const [after, near, far, order] = descending
    ? ['<', '<=', '>=', 'DESC']
    : ['>', '>=', '<=', 'ASC']
  const start = resuming ? `(screened, id) ${after} ($5, $6)` : `screened ${near} $5`
  return `${select} AND ${start} AND screened ${far} $3 ORDER BY screened ${order}, id ${order} LIMIT $4`
}
