/**
 * The reads of search and statistics on SQLite and PostgreSQL: the statements over the tables
 * that sql/terms.ts's triggers keep.
 */
import type { SearchPageQuery } from '../../core/driver'
import { ROLLUP_READS } from './rollup'
import { MOVIES, REPEATS, type SqlDialect, TALLIES, WORDS } from './terms'

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
  /**
   * How many movies hold each of `whole` whole words ($3...), counted up to the last parameter:
   * `n0`...; and the prefix's ($3 after them, then the least string after its words) first word
   * (`word`), a second one if it starts more (`more`), and, when it starts that one alone, its
   * count (`n`). With one whole word, nothing is counted unless the prefix starts one word.
   */
  termCounts(whole: number): string
  /** $3 first month, $4 last: each month's total, from the rollup (sql/rollup.ts). */
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
  /** How many rows of $1 namespace, $2 owner have no terms: `n`. */
  ownerUncounted: string
  /** Rows without terms of $1 namespace, $2 owner, $3 at most, oldest first. */
  ownerUnindexed: string
  /**
   * $1 namespace, $2 owner, $3 a JSON array of `[id, movie text, terms]`: sets each row's terms
   * if still unset and the movie still that text, in one statement (the triggers count them).
   */
  indexAll: string
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
    // One statement, whatever the words (each a round trip on D1): each count a range of the
    // key read as far as the bound, never every row of a common word; the prefix's words two
    // seeks. CASE: a count that cannot change the choice is not made.
    termCounts: (whole) => {
      const [prefix, after, most] = [3, 4, 5].map((n) => `$${n + whole}`)
      const count = (word: string) =>
        `(SELECT count(*) FROM (SELECT 1 FROM ${WORDS} WHERE ${owned} AND word = ${word} LIMIT ${most}) AS c)`
      const alone = 'p.word IS NOT NULL AND p.more IS NULL'
      const counts = Array.from({ length: whole }, (_, n) =>
        whole > 1
          ? `${count(`$${3 + n}`)} AS n${n}`
          : `CASE WHEN ${alone} THEN ${count('$3')} END AS n0`,
      )
      // Materialized: each seek made once, however often the counts name its word.
      const first = `SELECT (SELECT min(word) FROM ${WORDS} WHERE ${owned} AND word >= ${prefix} AND word < ${after}) AS word`
      const second = `SELECT f.word, (SELECT min(word) FROM ${WORDS} WHERE ${owned} AND word > f.word AND word < ${after}) AS more FROM f`
      return `WITH f AS MATERIALIZED (${first}), p AS MATERIALIZED (${second}) SELECT ${counts.join(', ')}, p.word, p.more, CASE WHEN ${alone} THEN ${count('p.word')} END AS n FROM p`
    },
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
    ownerUncounted: `SELECT count(*) AS n FROM ${MOVIES} WHERE ${owned} AND terms IS NULL`,
    ownerUnindexed: `SELECT id, movie FROM ${MOVIES} WHERE ${owned} AND terms IS NULL LIMIT $3`,
    indexAll:
      dialect === 'postgres'
        ? `UPDATE ${MOVIES} m SET terms = u.terms FROM (SELECT value ->> 0 AS id, value ->> 1 AS movie, value ->> 2 AS terms FROM jsonb_array_elements($3::jsonb)) AS u WHERE m.namespace = $1 AND m.owner = $2 AND m.id = u.id AND m.movie = u.movie AND m.terms IS NULL`
        : // Materialized: the JSON is read once, not once per row of the join. The batch's rows
          // carry the namespace and owner, so its rows drive the join, each a seek of the primary
          // key: given them as constants, SQLite reads every waiting row of the owner and scans
          // the batch for each (issue 61: 8 s of CPU for 10,000 adds, now 1.4 s).
          `WITH u(namespace, owner, id, movie, terms) AS MATERIALIZED (SELECT $1, $2, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each($3)) UPDATE ${MOVIES} SET terms = u.terms FROM u WHERE ${MOVIES}.namespace = u.namespace AND ${MOVIES}.owner = u.owner AND ${MOVIES}.id = u.id AND ${MOVIES}.movie = u.movie AND ${MOVIES}.terms IS NULL`,
    screen: `UPDATE ${WORDS} SET screened = (SELECT m.screened FROM ${MOVIES} m WHERE m.namespace = ${WORDS}.namespace AND m.owner = ${WORDS}.owner AND m.id = ${WORDS}.id) WHERE namespace = $1 AND screened IS NULL`,
  }
}
