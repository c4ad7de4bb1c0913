/**
 * Search and statistics on SQLite and PostgreSQL: each movie's terms (`termsOf`: its words, its
 * month counters, its link's screening) are written by the driver as JSON in the movie's row
 * (`movie_log_movies.terms`), and triggers on that table keep three tables from them, in the
 * very statement that changes the movie (no transaction needed, so any SqlConnection will do):
 *
 * - movie_log_words(namespace, owner, word, id, screened): a word's movies; a word a range of
 *   the key, a prefix a range of words. Each row carries its movie's screenedDate, indexed by
 *   (word, screened, id), so a word's movies are read in a listing's order (`searchPage`).
 * - movie_log_tallies(namespace, owner, key, n): the month counters, `YYYY-MM|kind|value`.
 * - movie_log_repeats(namespace, owner, link, month, title, n): each link's screenings by month
 *   and title, and in all (month and title `''`), indexed by (month, n) so the links screened
 *   more than once are a range.
 *
 * A counter is changed by one upsert of every key the change touches, in key order, so two
 * PostgreSQL writers touching the same counters lock them in one order (no deadlock). A row
 * with terms NULL (written before these tables, or added on SQLite, whose adds leave them to the
 * reads) is given its terms before a search or count (sql/backfill.ts).
 */
import { rollupSchema, rollupStatements } from './rollup'

/** The dialects of sql/statements.ts (named here too: that file builds on this one). */
export type SqlDialect = 'sqlite' | 'postgres'

/** The tables the terms live in and beside (sql/terms-reads.ts reads them). */
export const MOVIES = 'movie_log_movies'
export const WORDS = 'movie_log_words'
export const TALLIES = 'movie_log_tallies'
export const REPEATS = 'movie_log_repeats'

/** The tables, the column and the triggers, after `schemaStatements`' own. */
export function termsSchema(dialect: SqlDialect): string[] {
  const text = dialect === 'postgres' ? 'TEXT COLLATE "C" NOT NULL' : 'TEXT NOT NULL'
  const integer = dialect === 'postgres' ? 'BIGINT NOT NULL' : 'INTEGER NOT NULL'
  const tables = [
    `CREATE TABLE IF NOT EXISTS ${WORDS} (namespace ${text}, owner ${text}, word ${text}, id ${text}, PRIMARY KEY (namespace, owner, word, id))`,
    `CREATE TABLE IF NOT EXISTS ${TALLIES} (namespace ${text}, owner ${text}, key ${text}, n ${integer}, PRIMARY KEY (namespace, owner, key))`,
    `CREATE TABLE IF NOT EXISTS ${REPEATS} (namespace ${text}, owner ${text}, link ${text}, month ${text}, title ${text}, n ${integer}, PRIMARY KEY (namespace, owner, link, month, title))`,
    `CREATE INDEX IF NOT EXISTS ${REPEATS}_seen ON ${REPEATS} (namespace, owner, month, n)`,
    // A link's screenings with their counts: `repeats` reads them from the index alone.
    `CREATE INDEX IF NOT EXISTS ${REPEATS}_counts ON ${REPEATS} (namespace, owner, link, month, title, n)`,
    // The rows without terms (an older movie-log's, SQLite's adds'), found at once (an index of
    // those alone).
    `CREATE INDEX IF NOT EXISTS ${MOVIES}_unindexed ON ${MOVIES} (namespace) WHERE terms IS NULL`,
    // One owner's of them (SQLite's reads count in their owner's alone): never the others'.
    `CREATE INDEX IF NOT EXISTS ${MOVIES}_uncounted ON ${MOVIES} (namespace, owner) WHERE terms IS NULL`,
    // A movie's words: whether it holds one (a search's other words), and a trigger's deletes.
    `CREATE INDEX IF NOT EXISTS ${WORDS}_movie ON ${WORDS} (namespace, owner, id, word)`,
  ]
  // A word's movies by screening (a search page by date); rows an older movie-log wrote have
  // none until `backfill` copies their movie's, found at once by the partial index.
  const screened = [
    `CREATE INDEX IF NOT EXISTS ${WORDS}_screened ON ${WORDS} (namespace, owner, word, screened, id)`,
    `CREATE INDEX IF NOT EXISTS ${WORDS}_unscreened ON ${WORDS} (namespace) WHERE screened IS NULL`,
  ]
  if (dialect === 'sqlite') {
    const trigger = sqliteTermsTrigger
    return [
      // Refused as a duplicate column once added: `isDuplicateColumn` lets the opener go on.
      `ALTER TABLE ${MOVIES} ADD COLUMN terms TEXT`,
      ...tables,
      `ALTER TABLE ${WORDS} ADD COLUMN screened TEXT`,
      ...screened,
      ...['added', 'updated', 'deleted'].map(
        (name) => `DROP TRIGGER IF EXISTS movie_log_terms_${name}`,
      ),
      // An add without terms (one left to the next read) has nothing to count: the trigger's
      // statements are not even started (4 to 11 µs of an insert of 37 to 46 in a trial, issue 36).
      trigger('INSERT', 'added', false, true, 'NEW.terms IS NOT NULL'),
      trigger('UPDATE', 'updated', true, true),
      trigger('DELETE', 'deleted', true, false),
      ...rollupSchema(dialect),
    ]
  }
  return [
    `ALTER TABLE ${MOVIES} ADD COLUMN IF NOT EXISTS terms TEXT`,
    ...tables,
    `ALTER TABLE ${WORDS} ADD COLUMN IF NOT EXISTS screened TEXT COLLATE "C"`,
    ...screened,
    `CREATE OR REPLACE FUNCTION movie_log_terms_count() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF current_setting('movie_log.dropping', true) = 'on' THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    ${countStatements(dialect, false, true).join(';\n    ')};
  ELSIF TG_OP = 'UPDATE' THEN
    ${countStatements(dialect, true, true).join(';\n    ')};
  ELSE
    ${countStatements(dialect, true, false).join(';\n    ')};
  END IF;
  RETURN NULL;
END
$fn$`,
    `DO $do$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'movie_log_terms_v1' AND tgrelid = '${MOVIES}'::regclass) THEN
    CREATE TRIGGER movie_log_terms_v1 AFTER INSERT OR UPDATE OR DELETE ON ${MOVIES}
      FOR EACH ROW EXECUTE FUNCTION movie_log_terms_count();
  END IF;
END $do$`,
    ...rollupSchema(dialect),
  ]
}

/**
 * A terms trigger of SQLite's, named anew when what it writes changes (an older database's
 * triggers are dropped); rewritten under its name when only `when` is new (sqlite/triggers.ts).
 */
function sqliteTermsTrigger(
  event: string,
  name: string,
  old: boolean,
  added: boolean,
  when?: string,
): string {
  return `CREATE TRIGGER IF NOT EXISTS movie_log_terms_${name}_v2 AFTER ${event} ON ${MOVIES}${when ? ` WHEN ${when}` : ''} BEGIN
${countStatements('sqlite', old, added).join(';\n')};
END`
}

/** SQLite's add trigger of terms as movie-log wrote it before its WHEN: rewritten on open. */
export const OLDER_TERMS_TRIGGERS: readonly string[] = [
  sqliteTermsTrigger('INSERT', 'added', false, true),
]

/** Whether a schema statement failed only because the column it adds is there (SQLite). */
export function isDuplicateColumn(error: unknown): boolean {
  return /duplicate column name/i.test(String((error as { message?: unknown })?.message))
}

/**
 * What a trigger runs for a change: the old row's terms taken out (`old`), the new row's put
 * in (`added`). Rows without terms (written before them) count for nothing.
 */
function countStatements(dialect: SqlDialect, old: boolean, added: boolean): string[] {
  const list = (row: string, field: string) =>
    dialect === 'sqlite'
      ? `SELECT value FROM json_each(${row}.terms, '$.${field}')`
      : `SELECT jsonb_array_elements_text(${row}.terms::jsonb -> '${field}') AS value`
  const field = (row: string, name: string) =>
    dialect === 'sqlite'
      ? `json_extract(${row}.terms, '$.${name}')`
      : `(${row}.terms::jsonb ->> '${name}')`
  const row = added ? 'NEW' : 'OLD'
  const log = `namespace = ${row}.namespace AND owner = ${row}.owner`
  const statements: string[] = []
  if (old) {
    statements.push(
      `DELETE FROM ${WORDS} WHERE namespace = OLD.namespace AND owner = OLD.owner AND id = OLD.id AND word IN (${list('OLD', 'words')})`,
    )
  }
  if (added) {
    statements.push(
      `INSERT INTO ${WORDS} (namespace, owner, word, id, screened) SELECT NEW.namespace, NEW.owner, value, NEW.id, NEW.screened FROM (${list('NEW', 'words')}) AS w WHERE true ON CONFLICT DO NOTHING`,
    )
  }
  const tallies: string[] = []
  const repeats: string[] = []
  for (const [side, step] of [
    [old && 'OLD', -1],
    [added && 'NEW', 1],
  ] as const) {
    if (!side) continue
    tallies.push(`SELECT value AS key, ${step} AS d FROM (${list(side, 'tallies')}) AS t`)
    const present = `WHERE ${side}.terms IS NOT NULL`
    repeats.push(
      `SELECT ${field(side, 'link')} AS link, '' AS month, '' AS title, ${step} AS d ${present}`,
      `SELECT ${field(side, 'link')}, ${field(side, 'month')}, ${field(side, 'title')}, ${step} ${present}`,
    )
  }
  statements.push(
    `INSERT INTO ${TALLIES} (namespace, owner, key, n) SELECT ${row}.namespace, ${row}.owner, key, sum(d) FROM (${tallies.join(' UNION ALL ')}) AS c WHERE true GROUP BY key ORDER BY key ON CONFLICT (namespace, owner, key) DO UPDATE SET n = ${TALLIES}.n + excluded.n`,
    // PostgreSQL's rollup (sql/rollup.ts) in the same function; SQLite's are triggers of their own.
    ...(dialect === 'postgres'
      ? rollupStatements(tallies.join(' UNION ALL '), row, old && list('OLD', 'tallies'))
      : []),
    `INSERT INTO ${REPEATS} (namespace, owner, link, month, title, n) SELECT ${row}.namespace, ${row}.owner, link, month, title, sum(d) FROM (${repeats.join(' UNION ALL ')}) AS c WHERE true GROUP BY link, month, title ORDER BY link, month, title ON CONFLICT (namespace, owner, link, month, title) DO UPDATE SET n = ${REPEATS}.n + excluded.n`,
  )
  if (old) {
    statements.push(
      `DELETE FROM ${TALLIES} WHERE ${log} AND n = 0 AND key IN (${list('OLD', 'tallies')})`,
      `DELETE FROM ${REPEATS} WHERE ${log} AND n = 0 AND link = ${field('OLD', 'link')}`,
    )
  }
  return statements
}
