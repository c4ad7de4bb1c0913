// Terms counted in after the row was written: the rows an older movie-log wrote, given theirs
// once on the first search or count, and (SQLite) the rows adds leave to the reads.
import type { Movie } from '../../core/movie'
import { termsOf } from '../../core/tallies'
import type { SqlStatements } from './statements'

/** A movie's terms (`termsOf`) as the SQL drivers store them, for the triggers to count. */
export function termsText(movie: Movie): string {
  return JSON.stringify(termsOf(movie))
}

const BACKFILL_BATCH = 500

// `SqlConnection['query']`, named here: sql/driver.ts imports this file.
type Query = (sql: string, parameters: readonly unknown[]) => Promise<Record<string, unknown>[]>

/**
 * Counts in the terms of the namespace's rows that have none yet (those an older movie-log
 * wrote, those adds left to the reads): sets them, and the triggers count them. `together`:
 * each batch's rows issued at once, which SQLite's group commit writes in a few commits (at most
 * 256 writes each); else one after another (PostgreSQL: its writers would queue on the same
 * counters' locks anyway). As many as there were when asked, and no more: the partial index
 * gives the oldest first (on SQLite, in rowid order), so a writer adding faster than this reads
 * never holds it up, and every row there when it asked is counted in by its end.
 */
export async function countTerms(
  query: Query,
  statements: SqlStatements['terms'],
  namespace: string,
  together: boolean,
): Promise<void> {
  const [counted] = await query(statements.uncounted, [namespace])
  for (let left = Number(counted?.n ?? 0); left > 0; left -= BACKFILL_BATCH) {
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

/**
 * Counts in one batch of `owner`'s rows without terms (SQLite's adds leave them to the reads),
 * the oldest, set by one statement, and answers how many are left. Another owner's rows are
 * never read, so one person's burst of adds costs the others' reads nothing.
 */
export async function countOwnerBatch(
  query: Query,
  statements: SqlStatements['terms'],
  namespace: string,
  owner: string,
): Promise<number> {
  const rows = await query(statements.ownerUnindexed, [namespace, owner, BACKFILL_BATCH])
  if (rows.length === 0) return 0
  const terms = rows.map((row) => {
    const movie = JSON.parse(row.movie as string) as Movie
    return [row.id, row.movie, termsText(movie)]
  })
  await query(statements.indexAll, [namespace, owner, JSON.stringify(terms)])
  if (rows.length < BACKFILL_BATCH) return 0
  const [left] = await query(statements.ownerUncounted, [namespace, owner])
  return Number(left?.n ?? 0)
}

/** `owner`'s rows without terms that are there when asked, and no more (see `countTerms`). */
async function countOwnerTerms(
  query: Query,
  statements: SqlStatements['terms'],
  namespace: string,
  owner: string,
): Promise<void> {
  const [counted] = await query(statements.ownerUncounted, [namespace, owner])
  for (let left = Number(counted?.n ?? 0); left > 0; left -= BACKFILL_BATCH) {
    if ((await countOwnerBatch(query, statements, namespace, owner)) === 0) return
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
  /** Counts in the rows added without terms, if this driver's reads count them in. */
  added(): Promise<void>
  /**
   * Where reads count them in: one batch of `owner`'s rows added without terms counted in, and
   * how many are left (`LogDriver.countPending`).
   */
  pendingOf(owner: string): (() => Promise<number>) | undefined
  /**
   * Before a search or count of `owner`'s: its rows added without terms, by this process or
   * another on the file, so a read sees every add answered before it began (where reads count
   * them in; never another owner's); then an older movie-log's rows and words, once (tried
   * again after a failure).
   */
  beforeRead(owner: string): Promise<void>
}

/**
 * `addsLeave`: adds write no terms (SQLite on a file the driver opened, whose history records no
 * change for counting them in). `readsCount`: every read first counts in the rows without terms
 * (SQLite: other processes on the file may leave them), in group commits.
 */
export function termsCounting(
  query: Query,
  unbounded: Query,
  statements: SqlStatements['terms'],
  namespace: string,
  { addsLeave, readsCount }: { addsLeave: boolean; readsCount: boolean },
): TermsCounting {
  let backfilled: Promise<void> | undefined
  const added = async () => {
    if (readsCount) await countTerms(query, statements, namespace, true)
  }
  return {
    of: (movie) => (addsLeave ? null : termsText(movie)),
    added,
    pendingOf: (owner) =>
      readsCount ? () => countOwnerBatch(query, statements, namespace, owner) : undefined,
    beforeRead: async (owner) => {
      if (readsCount) await countOwnerTerms(query, statements, namespace, owner)
      // Where reads count, each owner's read counts an older movie-log's rows of its own too.
      backfilled ??= (
        readsCount
          ? unbounded(statements.screen, [namespace])
          : backfill(unbounded, statements, namespace)
      ).then(
        () => undefined,
        (error: unknown) => {
          backfilled = undefined
          throw error
        },
      )
      await backfilled
    },
  }
}
