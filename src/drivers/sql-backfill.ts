// Terms counted in after the row was written: the rows an older movie-log wrote, given theirs
// once on the first search or count, and (SQLite) the rows adds leave to the reads.
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

/**
 * Counts in the terms of the namespace's rows that have none yet (those an older movie-log
 * wrote, those adds left to the reads): sets them, and the triggers count them. `together`:
 * each batch's rows in one commit (SQLite's group commit takes writes issued at once); else one
 * after another (PostgreSQL: its writers would queue on the same counters' locks anyway).
 */
export async function countTerms(
  query: Query,
  statements: SqlStatements['terms'],
  namespace: string,
  together: boolean,
): Promise<void> {
  for (;;) {
    const rows = await query(statements.unindexed, [namespace, BACKFILL_BATCH])
    const index = (row: Record<string, unknown>) => {
      const movie = JSON.parse(row.movie as string) as Movie
      return query(statements.index, [namespace, row.owner, row.id, row.movie, termsText(movie)])
    }
    if (together) await Promise.all(rows.map(index))
    else for (const row of rows) await index(row)
    if (rows.length < BACKFILL_BATCH) return
  }
}

// What an older movie-log's database needs once: its rows' terms counted in, and the words rows
// it wrote given their movie's screenedDate.
export async function backfill(
  query: Query,
  statements: SqlStatements['terms'],
  namespace: string,
): Promise<void> {
  await countTerms(query, statements, namespace, false)
  await query(statements.screen, [namespace])
}

/** What a SQL driver counts in, and when (see `countTerms`). */
export interface TermsCounting {
  /** The terms an add writes: none where adds leave them to the reads. */
  of(movie: Movie): string | null
  /** Counts in the rows added without terms (where adds leave them to the reads). */
  added(): Promise<void>
  /**
   * Before a search or count: an older movie-log's rows, once (tried again after a failure),
   * then the rows added since, by any process, so a read sees every add answered before it.
   */
  beforeRead(): Promise<void>
}

export function termsCounting(
  query: Query,
  statements: SqlStatements['terms'],
  namespace: string,
  onRead: boolean,
): TermsCounting {
  let backfilled: Promise<void> | undefined
  const added = async () => {
    if (onRead) await countTerms(query, statements, namespace, true)
  }
  return {
    of: (movie) => (onRead ? null : termsText(movie)),
    added,
    beforeRead: async () => {
      backfilled ??= backfill(query, statements, namespace).catch((error: unknown) => {
        backfilled = undefined
        throw error
      })
      await backfilled
      await added()
    },
  }
}
