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
 * reads) is given its terms before a search or count (sql-backfill.ts).
 */
import type { SearchPageQuery } from '../core/driver'
import { ROLLUP_READS, rollupSchema, rollupStatements } from './sql-rollup'

// The dialects of sql-statements.ts (named here too: that file builds on this one).
type SqlDialect = 'sqlite' | 'postgres'

const MOVIES = 'movie_log_movies'
export const WORDS = 'movie_log_words'
const TALLIES = 'movie_log_tallies'
const REPEATS = 'movie_log_repeats'

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
    // Named anew when what they write changes: an older database's triggers are dropped.
    const trigger = (event: string, name: string, old: boolean, added: boolean) =>
      `CREATE TRIGGER IF NOT EXISTS movie_log_terms_${name}_v2 AFTER ${event} ON ${MOVIES} BEGIN
${countStatements(dialect, old, added).join(';\n')};
END`
    return [
      // Refused as a duplicate column once added: `isDuplicateColumn` lets the opener go on.
      `ALTER TABLE ${MOVIES} ADD COLUMN terms TEXT`,
      ...tables,
      `ALTER TABLE ${WORDS} ADD COLUMN screened TEXT`,
      ...screened,
      ...['added', 'updated', 'deleted'].map(
        (name) => `DROP TRIGGER IF EXISTS movie_log_terms_${name}`,
      ),
      trigger('INSERT', 'added', false, true),
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
    // PostgreSQL's rollup (sql-rollup.ts) in the same function; SQLite's are triggers of their own.
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

/**
 * The selects as one UNION ALL of two terms at a time, nested: D1 refuses a compound select of
 * many terms ("too many terms in compound SELECT").
 */
function pairs(selects: string[]): string {
  if (selects.length === 1) return selects[0] as string
  const half = Math.ceil(selects.length / 2)
  const side = (part: string[]) => `SELECT * FROM (${pairs(part)}) AS u${part.length}`
  return `${side(selects.slice(0, half))} UNION ALL ${side(selects.slice(half))}`
}

/** The statements of search and statistics, `$1` namespace and `$2` owner. */
export interface TermsStatements {
  /** A search with `whole` whole words ($3...), then the prefix's bounds, then the limit. */
  search(whole: number): string
  /**
   * A search page in a listing's order: `whole` whole words ($3...), the prefix's bounds, from,
   * to, the limit, then (resuming) the resume point's date and id (`added`: its id alone).
   * With `words` (no whole word), the prefix's words ($3...) in place of its bounds.
   */
  searchPage(
    whole: number,
    sort: SearchPageQuery['sort'],
    resuming: boolean,
    words?: number,
  ): string
  /** $3 a prefix, $4 the least string after its words, $5 at most: the words it starts. */
  prefixWords: string
  /** $3 first month, $4 last: each month's total, from the rollup (sql-rollup.ts). */
  months: string
  /** $3 `YYYY|`, $4 `YYYY}`: each `kind|value` counter over those whole years, from the rollup. */
  years: string
  /** $3 first month, $4 the key after the last month's: each `kind|value` counter summed over the months between. */
  kinds: string
  /** $3 first month, $4 last: the screenings by title of the links screened more than once in all. */
  repeats: string
  /** A drop's deletions, $1 namespace, $2 owner. */
  drop: string[]
  /** How many rows of namespace $1 (any owner) have no terms: `n`. */
  uncounted: string
  /** Rows without terms of namespace $1 (any owner), $2 at most. */
  unindexed: string
  /** $1 namespace, $2 owner, $3 id, $4 movie text, $5 terms: sets a row's terms if still unset. */
  index: string
  /** $1 namespace: gives the words rows an older movie-log wrote their movie's screenedDate. */
  screen: string
}

export function termsStatements(dialect: SqlDialect): TermsStatements {
  const owned = 'namespace = $1 AND owner = $2'
  const has = (condition: string) =>
    ` AND EXISTS (SELECT 1 FROM ${WORDS} o WHERE o.namespace = $1 AND o.owner = $2 AND o.id = w.id AND ${condition})`
  return {
    // Driven by one word's range of the key (the first whole word given, else the prefix's
    // words), each other word a seek of the movie's own words: it stops at the limit, never
    // reading every match. Driven by a prefix, a movie holding two of its words comes twice.
    search: (whole) => {
      const prefix = `o.word >= $${3 + whole} AND o.word < $${4 + whole}`
      let sql = `SELECT m.movie FROM ${WORDS} w JOIN ${MOVIES} m ON m.namespace = w.namespace AND m.owner = w.owner AND m.id = w.id WHERE w.namespace = $1 AND w.owner = $2`
      if (whole === 0) sql += ` AND ${prefix.replaceAll('o.', 'w.')}`
      else {
        sql += ' AND w.word = $3'
        for (let at = 1; at < whole; at++) sql += has(`o.word = $${3 + at}`)
        sql += has(prefix)
      }
      return `${sql} LIMIT $${5 + whole}`
    },
    // Driven as `search` is, the driving word's rows read along (word, screened, id) for a
    // date order, (word, id) for `added`, from the resume point on and stopping at the limit.
    // Driven by a prefix, the prefix's words' rows are merged (DISTINCT: a movie holding two).
    searchPage: (whole, sort, resuming, words = 0) => {
      // $3 on: the whole words and the prefix's bounds, or the prefix's words; then the rest.
      const at = (n: number) => `$${n + (words > 0 ? words - 2 : whole)}`
      const prefix = `o.word >= ${at(3)} AND o.word < ${at(4)}`
      const back = sort === '-screenedDate'
      const [after, order] = back ? ['<', 'DESC'] : ['>', 'ASC']
      const columns = sort === 'added' ? ['id'] : ['screened', 'id']
      const by = (table: string) =>
        columns.map((column) => `${table}.${column} ${order}`).join(', ')
      // One run of the words index, in the page's order, from the resume point, within range.
      const run = (driving: string, distinct = '') => {
        let where = `w.namespace = $1 AND w.owner = $2 AND ${driving}`
        // By `added`, SQLite is given the range as an expression, not a range of the (word,
        // screened) index, so it reads the run along (word, id), in order, and stops at the
        // limit (PostgreSQL does so itself, and would misjudge the expression's share).
        const screened =
          sort === 'added' && dialect === 'sqlite' ? "(w.screened || '')" : 'w.screened'
        where += ` AND ${screened} >= ${at(5)} AND ${screened} <= ${at(6)}`
        if (resuming) {
          where +=
            sort === 'added'
              ? ` AND w.id > ${at(8)}`
              : ` AND (w.screened, w.id) ${after} (${at(8)}, ${at(9)})`
        }
        const selected = columns.map((column) => `w.${column}`).join(', ')
        return `SELECT ${distinct}${selected} FROM ${WORDS} w WHERE ${where} ORDER BY ${by('w')} LIMIT ${at(7)}`
      }
      let page: string
      if (words > 0) {
        // Each of the prefix's words a run of its own, merged: at most a page of each read.
        const runs = Array.from(
          { length: words },
          (_, n) => `SELECT * FROM (${run(`w.word = $${3 + n}`)}) AS w${n}`,
        )
        page = `SELECT DISTINCT * FROM (${pairs(runs)}) AS w ORDER BY ${by('w')} LIMIT ${at(7)}`
      } else if (whole === 0) {
        page = run(prefix.replaceAll('o.', 'w.'), 'DISTINCT ')
      } else {
        let driving = 'w.word = $3'
        for (let other = 1; other < whole; other++) driving += has(`o.word = $${3 + other}`)
        page = run(driving + has(prefix))
      }
      // CROSS JOIN: SQLite then reads the page first (it would else scan the log's movies).
      return `SELECT m.movie FROM (${page}) AS p CROSS JOIN ${MOVIES} m WHERE m.namespace = $1 AND m.owner = $2 AND m.id = p.id ORDER BY ${by('p')}`
    },
    // A loose scan: each next word of the prefix one seek of the key, never its movies.
    prefixWords: `WITH RECURSIVE k(word) AS (SELECT (SELECT min(word) FROM ${WORDS} WHERE ${owned} AND word >= $3 AND word < $4) UNION ALL SELECT (SELECT min(o.word) FROM ${WORDS} o WHERE o.namespace = $1 AND o.owner = $2 AND o.word > k.word AND o.word < $4) FROM k WHERE k.word IS NOT NULL) SELECT word FROM k WHERE word IS NOT NULL LIMIT $5`,
    months: ROLLUP_READS.months,
    years: ROLLUP_READS.years,
    // Summed here: a range of the key, a few hundred rows sent for thousands read.
    kinds: `SELECT substr(key, 9) AS kind, sum(n) AS n FROM ${TALLIES} WHERE ${owned} AND key >= $3 AND key < $4 GROUP BY substr(key, 9)`,
    // From the links screened more than once (a range of the (month, n) index), each one's
    // months a range of the key, summed by title: never a read of every link's screenings.
    repeats: `SELECT r.link, r.title, sum(r.n) AS n FROM (SELECT link FROM ${REPEATS} WHERE ${owned} AND month = '' AND n > 1) AS c CROSS JOIN ${REPEATS} AS r WHERE r.namespace = $1 AND r.owner = $2 AND r.link = c.link AND r.month >= $3 AND r.month <= $4 GROUP BY r.link, r.title`,
    drop: [
      ...[WORDS, TALLIES, REPEATS].map((table) => `DELETE FROM ${table} WHERE ${owned}`),
      ROLLUP_READS.drop,
    ],
    uncounted: `SELECT count(*) AS n FROM ${MOVIES} WHERE namespace = $1 AND terms IS NULL`,
    unindexed: `SELECT owner, id, movie FROM ${MOVIES} WHERE namespace = $1 AND terms IS NULL LIMIT $2`,
    index: `UPDATE ${MOVIES} SET terms = $5 WHERE ${owned} AND id = $3 AND movie = $4 AND terms IS NULL`,
    screen: `UPDATE ${WORDS} SET screened = (SELECT m.screened FROM ${MOVIES} m WHERE m.namespace = ${WORDS}.namespace AND m.owner = ${WORDS}.owner AND m.id = ${WORDS}.id) WHERE namespace = $1 AND screened IS NULL`,
  }
}
