/**
 * The month counters rolled up, so `stats` over whole years reads a row per counter and year,
 * not per counter and month (issue 39: at 100k movies, thousands of rows summed took ~50-90 ms):
 *
 * - movie_log_rollup(namespace, owner, key, n): `YYYY|kind|value` (a counter over a year) and
 *   `YYYY-MM` (a month's total, its `w` counters summed).
 *
 * Kept from the month counters (movie_log_tallies) in the statement that changes them: on
 * PostgreSQL by the movies' trigger function (`rollupStatements`, after the counters, in key
 * order, so two writers lock rows in one order); on SQLite (one writer at a time) by triggers
 * on the counters table, which leave the movies' triggers as any movie-log version made them.
 * A database made before this table is filled from its counters once, at open (`ROLLUP_FILL`).
 */
type SqlDialect = 'sqlite' | 'postgres'

export const ROLLUP = 'movie_log_rollup'
const TALLIES = 'movie_log_tallies'

// The year counter and the month total a counter key (`YYYY-MM|k|v`, column `key`) adds to.
const yearKey = (key: string) => `substr(${key}, 1, 4) || substr(${key}, 8)`
const monthKey = (key: string) => `substr(${key}, 1, 7)`
const isWeekday = (key: string) => `substr(${key}, 9, 1) = 'w'`

// The whole table rebuilt from the counters, in one statement (so atomic, and right whenever it
// runs after the triggers exist), once: the row ('', '', '') marks it done. A row the triggers
// wrote before it (another process's write since they were made) is counted again from the
// counters too: a step down of a counter the fill no longer finds leaves it at 0, not -1.
const ROLLUP_FILL = `INSERT INTO ${ROLLUP} (namespace, owner, key, n)
SELECT namespace, owner, k, sum(n) FROM (
  SELECT namespace, owner, ${yearKey('key')} AS k, n FROM ${TALLIES}
  UNION ALL SELECT namespace, owner, ${monthKey('key')}, n FROM ${TALLIES} WHERE ${isWeekday('key')}
  UNION ALL SELECT namespace, owner, key, 0 FROM ${ROLLUP}
) AS t WHERE NOT EXISTS (SELECT 1 FROM ${ROLLUP} WHERE namespace = '' AND owner = '' AND key = '')
GROUP BY namespace, owner, k
UNION ALL SELECT '', '', '', 1 WHERE NOT EXISTS (SELECT 1 FROM ${ROLLUP} WHERE namespace = '' AND owner = '' AND key = '')
ON CONFLICT (namespace, owner, key) DO UPDATE SET n = excluded.n`

/** The table, SQLite's triggers, then the fill: after `termsSchema`'s statements. */
export function rollupSchema(dialect: SqlDialect): string[] {
  const text = dialect === 'postgres' ? 'TEXT COLLATE "C" NOT NULL' : 'TEXT NOT NULL'
  const integer = dialect === 'postgres' ? 'BIGINT NOT NULL' : 'INTEGER NOT NULL'
  const table = `CREATE TABLE IF NOT EXISTS ${ROLLUP} (namespace ${text}, owner ${text}, key ${text}, n ${integer}, PRIMARY KEY (namespace, owner, key))`
  if (dialect === 'postgres') return [table, ROLLUP_FILL]
  return [table, ...rollupTriggers(true), ROLLUP_FILL]
}

/**
 * SQLite's triggers on the counters. Only a step down can leave a rollup row at zero: `guarded`,
 * a step up skips the delete, whose condition SQLite tests once before it looks anything up (a
 * fifth of an add's SQL, issue 36). Unguarded, as movie-log wrote them before: `OLDER_TRIGGERS`.
 */
function rollupTriggers(guarded: boolean): string[] {
  const trigger = (event: string, row: 'NEW' | 'OLD', change: string) =>
    `CREATE TRIGGER IF NOT EXISTS ${ROLLUP}_${event.toLowerCase()} AFTER ${event} ON ${TALLIES} WHEN ${change} <> 0 BEGIN
INSERT INTO ${ROLLUP} (namespace, owner, key, n) SELECT ${row}.namespace, ${row}.owner, k, ${change} FROM (SELECT ${yearKey(`${row}.key`)} AS k UNION ALL SELECT ${monthKey(`${row}.key`)} WHERE ${isWeekday(`${row}.key`)}) WHERE true ON CONFLICT (namespace, owner, key) DO UPDATE SET n = n + excluded.n;
DELETE FROM ${ROLLUP} WHERE ${guarded ? `${change} < 0 AND ` : ''}namespace = ${row}.namespace AND owner = ${row}.owner AND n = 0 AND key IN (${yearKey(`${row}.key`)}, ${monthKey(`${row}.key`)});
END`
  return [
    trigger('INSERT', 'NEW', 'NEW.n'),
    trigger('UPDATE', 'NEW', 'NEW.n - OLD.n'),
    trigger('DELETE', 'OLD', '-OLD.n'),
  ]
}

/** SQLite's rollup triggers as an older movie-log wrote them: rewritten on open (sqlite/triggers.ts). */
export const OLDER_TRIGGERS: readonly string[] = rollupTriggers(false)

/**
 * PostgreSQL's trigger function's statements for a change, after its counters': `counters`
 * is the query of the changed counter keys and their steps (`key`, `d`), `row` NEW or OLD.
 */
export function rollupStatements(counters: string, row: string, old: string | false): string[] {
  const statements = [
    `INSERT INTO ${ROLLUP} (namespace, owner, key, n) SELECT ${row}.namespace, ${row}.owner, k, sum(d) FROM (SELECT ${yearKey('key')} AS k, d FROM (${counters}) AS c UNION ALL SELECT ${monthKey('key')}, d FROM (${counters}) AS c WHERE ${isWeekday('key')}) AS r WHERE true GROUP BY k ORDER BY k ON CONFLICT (namespace, owner, key) DO UPDATE SET n = ${ROLLUP}.n + excluded.n`,
  ]
  if (old) {
    statements.push(
      `DELETE FROM ${ROLLUP} WHERE namespace = OLD.namespace AND owner = OLD.owner AND n = 0 AND key IN (SELECT ${yearKey('value')} FROM (${old}) AS o UNION ALL SELECT ${monthKey('value')} FROM (${old}) AS o)`,
    )
  }
  return statements
}

/** The reads of `stats`, `$1` namespace and `$2` owner. */
export const ROLLUP_READS = {
  /** $3 first month, $4 last: each month's total. */
  months: `SELECT key AS month, n FROM ${ROLLUP} WHERE namespace = $1 AND owner = $2 AND key >= $3 AND key <= $4 AND length(key) = 7 AND n <> 0`,
  /** $3 `YYYY|` of the first year, $4 `YYYY}` of the last: each `kind|value` over those years. */
  years: `SELECT substr(key, 6) AS kind, sum(n) AS n FROM ${ROLLUP} WHERE namespace = $1 AND owner = $2 AND key >= $3 AND key < $4 AND substr(key, 5, 1) = '|' AND n <> 0 GROUP BY substr(key, 6)`,
  drop: `DELETE FROM ${ROLLUP} WHERE namespace = $1 AND owner = $2`,
}

/**
 * How `from`..`to` (`YYYY-MM`) is read: the whole years within it from the rollup (`years`,
 * key bounds), the months outside those from the month counters (`months`, key bounds).
 */
export function rollupRanges(
  from: string,
  to: string,
): { years?: [string, string]; months: [string, string][] } {
  const year = (n: number) => String(n).padStart(4, '0')
  const first = Number(from.slice(0, 4)) + (from.endsWith('-01') ? 0 : 1)
  const last = Number(to.slice(0, 4)) - (to.endsWith('-12') ? 0 : 1)
  // '}' follows '|', so every key of the month `to` sorts before `to}`.
  if (first > last) return { months: [[from, `${to}}`]] }
  const months: [string, string][] = []
  if (from < `${year(first)}-01`) months.push([from, `${year(first)}-01`])
  if (to > `${year(last)}-12`) months.push([`${year(last + 1)}-01`, `${to}}`])
  return { years: [`${year(first)}|`, `${year(last)}}`], months }
}
