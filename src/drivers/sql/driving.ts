/**
 * Which word drives a search on SQLite, PostgreSQL and D1 (issue 57). A search statement reads
 * the first of its whole words along that word's run of the words' index and checks each movie
 * for the others (sql/terms-reads.ts), so it reads about as many movies of that word as it takes
 * to find a page of matches: driven by a common word whose movies rarely hold the other, most
 * of them (two common tags at 100,000 movies: 436 ms on SQLite). So the rarest drives, by a
 * count of each word's rows, in one statement (`termCounts`), each count bounded.
 */
import type { WordQuery } from '../../core/words'
import { afterPrefix } from '../../core/words'
import type { SqlStatements } from './statements'

/** Most rows of a word counted: past it a word is common, and any common one may drive. */
const COUNTED_MOST = 10_000

type Run = (statement: string, ...parameters: unknown[]) => Promise<Record<string, unknown>[]>

/**
 * The query's whole words, the rarest first, with its prefix's word when the prefix starts that
 * one alone (a tag's term always does: a tag filter's last tag is the query's prefix, see
 * `withTags`), which is then a whole word too; `undefined` when nothing can match (a word or the
 * prefix holds no movie). Ties, and words past COUNTED_MOST, longest first.
 */
export async function rarestFirst(
  run: Run,
  statements: SqlStatements['terms'],
  query: WordQuery,
): Promise<string[] | undefined> {
  const words = [...query.whole].sort((a, b) => b.length - a.length)
  if (words.length === 0) return words
  const bounds = [query.prefix, afterPrefix(query.prefix), COUNTED_MOST]
  const [row] = await run(statements.termCounts(words.length), ...words, ...bounds)
  if (row?.word === null || row?.word === undefined) return undefined
  const counts = new Map<string, number>()
  if (row.more === null && !words.includes(row.word as string)) {
    words.push(row.word as string)
    counts.set(row.word as string, Number(row.n))
  }
  if (words.length === 1) return words
  for (const [at, word] of query.whole.length > 0 ? words.entries() : []) {
    if (at < query.whole.length) counts.set(word, Number(row[`n${at}`]))
  }
  if ([...counts.values()].includes(0)) return undefined
  return words.sort((a, b) => (counts.get(a) as number) - (counts.get(b) as number))
}
