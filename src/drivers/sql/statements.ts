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
 * - movie_log_changes(namespace, owner, seq, type, movie): each log's history, the latest
 *   HISTORY_BOUND changes, keyed by (namespace, owner, seq), appended by a trigger on
 *   movie_log_movies in the statement that changes the movie (see `historyStatements`).
 * PostgreSQL compares the text columns in "C" order (bytes, as JavaScript compares ids),
 * whatever the database's locale; SQLite's default (BINARY) is that order already.
 */

import { HISTORY_BOUND } from '../../core/driver'
import { termsSchema } from './terms'
import { type TermsStatements, termsStatements } from './terms-reads'

/** The two databases the SQL drivers speak. */
export type SqlDialect = 'sqlite' | 'postgres'

/** Expired records deleted at most per purge: a purge is one short statement. */
export const PURGE_BATCH = 500

/** The channel every PostgreSQL driver LISTENs on; a payload is `changeChannelPayload`. */
export const CHANGE_CHANNEL = 'movie_log_changes'

/**
 * The last seq PostgreSQL handed out to a change (of any log): the LISTEN client reads it now
 * and then, to wake its watchers for a change whose NOTIFY never came.
 */
export const LAST_CHANGE_SEQ =
  'SELECT (CASE WHEN is_called THEN last_value ELSE 0 END)::text AS seq FROM movie_log_changes_seq'

const MOVIES = 'movie_log_movies'
const RECORDS = 'movie_log_records'
const CHANGES = 'movie_log_changes'

/** `CREATE ... IF NOT EXISTS`, in order: safe to run again, and by two processes at once. */
export function schemaStatements(dialect: SqlDialect): string[] {
  const text = dialect === 'postgres' ? 'TEXT COLLATE "C" NOT NULL' : 'TEXT NOT NULL'
  const integer = dialect === 'postgres' ? 'BIGINT NOT NULL' : 'INTEGER NOT NULL'
  return [
    `CREATE TABLE IF NOT EXISTS ${MOVIES} (namespace ${text}, owner ${text}, id ${text}, screened ${text}, movie TEXT NOT NULL, PRIMARY KEY (namespace, owner, id))`,
    `CREATE INDEX IF NOT EXISTS ${MOVIES}_screened ON ${MOVIES} (namespace, owner, screened, id)`,
    `CREATE TABLE IF NOT EXISTS ${RECORDS} (namespace ${text}, owner ${text}, key ${text}, value TEXT NOT NULL, expires ${integer}, PRIMARY KEY (namespace, owner, key))`,
    `CREATE INDEX IF NOT EXISTS ${RECORDS}_expires ON ${RECORDS} (expires)`,
    `CREATE TABLE IF NOT EXISTS ${CHANGES} (namespace ${text}, owner ${text}, seq ${integer}, type TEXT NOT NULL, movie TEXT NOT NULL, PRIMARY KEY (namespace, owner, seq))`,
    ...historyStatements(dialect),
    ...termsSchema(dialect),
  ]
}

function sqliteHistoryTrigger(event: string, type: string, row: 'NEW' | 'OLD'): string {
  const now = `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 1000`
  const log = `namespace = ${row}.namespace AND owner = ${row}.owner`
  return `CREATE TRIGGER IF NOT EXISTS ${CHANGES}_${type} AFTER ${event} ON ${MOVIES} BEGIN
INSERT INTO ${CHANGES} (namespace, owner, seq, type, movie) SELECT ${row}.namespace, ${row}.owner, coalesce(max(seq), ${now}) + 1, '${type}', ${row}.movie FROM ${CHANGES} WHERE ${log};
DELETE FROM ${CHANGES} WHERE ${log} AND seq <= (SELECT max(seq) FROM ${CHANGES} WHERE ${log}) - ${HISTORY_BOUND};
END`
}

/**
 * SQLite's history trigger of edits: an edit sets the movie; an update of a row's terms alone
 * (counted on read, sql/backfill.ts) is no change.
 */
export const SQLITE_HISTORY_OF_EDITS = sqliteHistoryTrigger('UPDATE OF movie', 'updated', 'NEW')

/**
 * SQLite's history trigger of edits as movie-log wrote it before terms were counted on read: on
 * any update, so counting a row's terms in would read as an edit. Rewritten on open
 * (sqlite/triggers.ts), under its name.
 */
export const OLDER_HISTORY_TRIGGERS: readonly string[] = [
  sqliteHistoryTrigger('UPDATE', 'updated', 'NEW'),
]

/** A page of a log's history, from $3 (inclusive), $4 at most: a range of its primary key. */
export const CHANGES_RANGE = `SELECT seq, type, movie FROM ${CHANGES} WHERE namespace = $1 AND owner = $2 AND seq >= $3 ORDER BY seq LIMIT $4`
/** A log's latest change: the last entry of its range of the primary key. */
export const CHANGES_LATEST = `SELECT max(seq) AS seq FROM ${CHANGES} WHERE namespace = $1 AND owner = $2`

/**
 * The triggers that keep each log's history, so a change is appended by the very statement
 * that changed the movie (a put, replace or remove that changed nothing fires nothing), and
 * the history bound kept there too.
 *
 * SQLite has one writer at a time: a log's seq goes up by one per change, from the time its
 * first change was made in µs (a log dropped and started again never gives an old id to a new
 * change), so the bound is a range delete of the one change that falls out.
 *
 * PostgreSQL's writers of one log run at once, so seqs come from one sequence and may commit
 * out of order. Each writer holds the log's advisory lock shared until it commits (writers never
 * wait on each other); a reader takes it exclusive for its one statement (`movie_log_changes_from`,
 * `_latest`): it waits for the writers in flight, so it never reads a seq past one that commits
 * later. A drop (`movie_log.dropping` set) appends nothing.
 *
 * The NOTIFY that wakes other processes is sent by the driver after the write (`notify`), not
 * from the trigger: PostgreSQL holds one lock, for the whole cluster, from a notifying
 * transaction's pre-commit to its end, so notifying writers would commit one at a time.
 */
function historyStatements(dialect: SqlDialect): string[] {
  if (dialect === 'sqlite') {
    return [
      sqliteHistoryTrigger('INSERT', 'added', 'NEW'),
      SQLITE_HISTORY_OF_EDITS,
      sqliteHistoryTrigger('DELETE', 'deleted', 'OLD'),
    ]
  }
  const lock = `${LOG_LOCK}, hashtext($1 || ':' || $2)`
  return [
    `CREATE SEQUENCE IF NOT EXISTS ${CHANGES}_seq`,
    `CREATE OR REPLACE FUNCTION ${CHANGES}_append() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  changed ${MOVIES}%ROWTYPE;
  kind TEXT;
  next BIGINT;
BEGIN
  IF current_setting('movie_log.dropping', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN changed := OLD; kind := 'deleted';
  ELSIF TG_OP = 'UPDATE' THEN changed := NEW; kind := 'updated';
  ELSE changed := NEW; kind := 'added';
  END IF;
  PERFORM pg_advisory_xact_lock_shared(${LOG_LOCK}, hashtext(changed.namespace || ':' || changed.owner));
  next := nextval('${CHANGES}_seq');
  INSERT INTO ${CHANGES} (namespace, owner, seq, type, movie)
    VALUES (changed.namespace, changed.owner, next, kind, changed.movie);
  -- The bound: what is older than the latest HISTORY_BOUND goes (an index walk of that many).
  DELETE FROM ${CHANGES} WHERE namespace = changed.namespace AND owner = changed.owner
    AND seq < (SELECT seq FROM ${CHANGES} WHERE namespace = changed.namespace AND owner = changed.owner
      ORDER BY seq DESC OFFSET ${HISTORY_BOUND - 1} LIMIT 1);
  RETURN NULL;
END
$fn$`,
    `DO $do$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '${CHANGES}_v1' AND tgrelid = '${MOVIES}'::regclass) THEN
    CREATE TRIGGER ${CHANGES}_v1 AFTER INSERT OR UPDATE OR DELETE ON ${MOVIES}
      FOR EACH ROW EXECUTE FUNCTION ${CHANGES}_append();
  END IF;
END $do$`,
    // Readers: the lock first, then (a statement of its own, so a snapshot taken after it) the read.
    `CREATE OR REPLACE FUNCTION ${CHANGES}_from(TEXT, TEXT, BIGINT, BIGINT)
RETURNS TABLE (change_seq BIGINT, change_type TEXT, change_movie TEXT) LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(${lock});
  RETURN QUERY ${CHANGES_RANGE};
END
$fn$`,
    `CREATE OR REPLACE FUNCTION ${CHANGES}_latest(TEXT, TEXT) RETURNS BIGINT LANGUAGE plpgsql AS $fn$
BEGIN
  PERFORM pg_advisory_xact_lock(${lock});
  RETURN (${CHANGES_LATEST});
END
$fn$`,
  ]
}

// The advisory lock space of a log's writers (pg_advisory_xact_lock(int, int): apart from the
// schema's one-number lock).
const LOG_LOCK = 0x6d6c6368 // 'mlch'

/** Every statement a driver runs. The first two parameters are namespace and owner (but in `owners`). */
export interface SqlStatements {
  /** $3 id, $4 screened, $5 movie, $6 terms: inserts unless the id is taken; a row when it did. */
  put: string
  /** $3 id. */
  get: string
  /** $3 after ('' for the first page), $4 limit. */
  listAfter: string
  /** Pages by date, `[descending][resuming]`: see `datePage` for their parameters. */
  byDate: [[string, string], [string, string]]
  /** $3 id, $4 expected movie text, $5 next screened, $6 next movie text, $7 its terms: a row when it did. */
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
  dropChanges: string
  /**
   * A drop, in order, each with $1 namespace and $2 owner (PostgreSQL: one transaction, which
   * appends no change and wakes the owner's listeners; SQLite: the movies' deletions append
   * changes, deleted before and after).
   */
  drop: string[]
  /** $3 the seq to start at (inclusive: the caller's `after`, checked to be there), $4 limit. */
  changesFrom: string
  latestChange: string
  /**
   * PostgreSQL: $1 namespace, $2 owner: wakes the listeners of the log, in a transaction of its
   * own that need not wait for the disk (a NOTIFY takes a transaction id, so its commit would
   * sync, under the cluster's one NOTIFY lock).
   */
  notify: string
  /**
   * $1 namespace, $2 after ('' from the first: the one diary's owner is never listed), $3
   * limit: the owners with a movie, in byte order, read along the primary key's first columns.
   */
  owners: string
  /** $1 now: deletes at most PURGE_BATCH expired records, of any namespace and owner. */
  purge: string
  /** The LIMIT parameter that means no limit. */
  noLimit: number | null
  /** Search and statistics (`sql/terms.ts`). */
  terms: TermsStatements
}

const owned = 'namespace = $1 AND owner = $2'

export function sqlStatements(dialect: SqlDialect): SqlStatements {
  const movie = `SELECT movie FROM ${MOVIES} WHERE ${owned}`
  const statements: SqlStatements = {
    put: `INSERT INTO ${MOVIES} (namespace, owner, id, screened, movie, terms) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (namespace, owner, id) DO NOTHING RETURNING id`,
    get: `${movie} AND id = $3`,
    listAfter: `${movie} AND id > $3 ORDER BY id LIMIT $4`,
    byDate: [
      [datePage(movie, false, false), datePage(movie, false, true)],
      [datePage(movie, true, false), datePage(movie, true, true)],
    ],
    replace: `UPDATE ${MOVIES} SET screened = $5, movie = $6, terms = $7 WHERE ${owned} AND id = $3 AND movie = $4 RETURNING id`,
    remove: `DELETE FROM ${MOVIES} WHERE ${owned} AND id = $3 AND movie = $4 RETURNING id`,
    create: `INSERT INTO ${RECORDS} AS r (namespace, owner, key, value, expires) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (namespace, owner, key) DO UPDATE SET value = excluded.value, expires = excluded.expires WHERE r.expires <= $6 RETURNING key`,
    read: `SELECT value FROM ${RECORDS} WHERE ${owned} AND key = $3 AND expires > $4`,
    write: `INSERT INTO ${RECORDS} (namespace, owner, key, value, expires) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (namespace, owner, key) DO UPDATE SET value = excluded.value, expires = excluded.expires`,
    dropMovies: `DELETE FROM ${MOVIES} WHERE ${owned}`,
    dropRecords: `DELETE FROM ${RECORDS} WHERE ${owned}`,
    dropChanges: `DELETE FROM ${CHANGES} WHERE ${owned}`,
    changesFrom:
      dialect === 'postgres'
        ? `SELECT change_seq AS seq, change_type AS type, change_movie AS movie FROM ${CHANGES}_from($1, $2, $3, $4)`
        : CHANGES_RANGE,
    latestChange:
      dialect === 'postgres' ? `SELECT ${CHANGES}_latest($1, $2) AS seq` : CHANGES_LATEST,
    drop: [],
    notify: `SELECT set_config('synchronous_commit', 'off', true), pg_notify('${CHANGE_CHANNEL}', md5($1 || ':' || $2))`,
    owners: `SELECT DISTINCT owner FROM ${MOVIES} WHERE namespace = $1 AND owner > $2 ORDER BY owner LIMIT $3`,
    purge: `DELETE FROM ${RECORDS} WHERE (namespace, owner, key) IN (SELECT namespace, owner, key FROM ${RECORDS} WHERE expires <= $1 LIMIT ${PURGE_BATCH})`,
    noLimit: dialect === 'postgres' ? null : -1,
    terms: termsStatements(dialect),
  }
  const drops = [statements.dropMovies, statements.dropRecords, ...statements.terms.drop]
  if (dialect === 'postgres') {
    return {
      ...statements,
      drop: [
        `SELECT set_config('movie_log.dropping', 'on', true) WHERE $1::text IS NOT NULL AND $2::text IS NOT NULL`,
        ...drops,
        statements.dropChanges,
        `SELECT pg_notify('${CHANGE_CHANNEL}', md5($1 || ':' || $2))`,
      ],
    }
  }
  const sqlite = (sql: string) => sql.replace(/\$(\d+)/g, '?$1')
  const { byDate, noLimit, drop, terms, ...rest } = statements
  const { search, searchPage, termCounts, drop: _, ...reads } = terms
  return {
    ...(Object.fromEntries(Object.entries(rest).map(([name, sql]) => [name, sqlite(sql)])) as Omit<
      SqlStatements,
      'byDate' | 'noLimit' | 'drop' | 'terms'
    >),
    terms: {
      ...(Object.fromEntries(
        Object.entries(reads).map(([name, sql]) => [name, sqlite(sql)]),
      ) as Omit<TermsStatements, 'search' | 'searchPage' | 'termCounts' | 'drop'>),
      search: (whole) => sqlite(search(whole)),
      termCounts: (whole) => sqlite(termCounts(whole)),
      searchPage: (...shape) => sqlite(searchPage(...shape)),
      drop: terms.drop.map(sqlite),
    },
    byDate: byDate.map((pair) => pair.map(sqlite)) as SqlStatements['byDate'],
    drop: [statements.dropChanges, ...drops, statements.dropChanges].map(sqlite),
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
