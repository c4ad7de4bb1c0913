// What an older movie-log's database is given once, on the first search or count: the terms
// of the rows it wrote (the triggers then count them) and its words rows' screenedDate.
import type { Movie } from '../core/movie'
import { termsOf } from '../core/tallies'
import type { SqlStatements } from './sql-statements'

/** A movie's terms (`termsOf`) as the SQL drivers store them, for the triggers to count. */
export function termsText(movie: Movie): string {
  return JSON.stringify(termsOf(movie))
}

const BACKFILL_BATCH = 500

// `SqlConnection['query']`, named here: sql-driver.ts imports this file.
type Query = (sql: string, parameters: readonly unknown[]) => Promise<Record<string, unknown>[]>

// The namespace's rows an older movie-log wrote, given their terms (the triggers count them),
// and the words rows it wrote given their movie's screenedDate.
export async function backfill(
  query: Query,
  statements: SqlStatements['terms'],
  namespace: string,
): Promise<void> {
  for (;;) {
    const rows = await query(statements.unindexed, [namespace, BACKFILL_BATCH])
    for (const row of rows) {
      const movie = JSON.parse(row.movie as string) as Movie
      await query(statements.index, [namespace, row.owner, row.id, row.movie, termsText(movie)])
    }
    if (rows.length < BACKFILL_BATCH) break
  }
  await query(statements.screen, [namespace])
}
