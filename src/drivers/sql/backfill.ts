// Terms counted in after the row was written: the rows an older movie-log wrote, given theirs
// once on the first search or count, and (SQLite) the rows adds leave to the reads.
import type { Movie } from '../../core/movie'
import { termsOf } from '../../core/tallies'
import { idleFolding } from './fold'
import type { SqlStatements } from './statements'

/** A movie's terms (`termsOf`) as the SQL drivers store them, for the triggers to count. */
export function termsText(movie: Movie): string {
  return JSON.stringify(termsOf(movie))
}

const BACKFILL_BATCH = 500

/**
 * A batch counted in in the background: smaller, so that on a synchronous library the adds and
 * reads that come meanwhile wait less for it (about 25 ms for 200 rows on a loaded machine).
 */
const FOLD_BATCH = 200

// `SqlConnection['query']`, named here: sql/driver.ts imports this file.
type Query = (sql: string, parameters: readonly unknown[]) => Promise<Record<string, unknown>[]>

/**
 * Counts in the terms of the namespace's rows that have none yet (those an older movie-log
 * wrote, those adds left to the reads): sets them, and the triggers count them. `together`:
 * each batch's rows set by one statement per owner (`indexAll`), issued at once, which SQLite's
 * group commit writes in one commit; else one row after another (PostgreSQL: a statement of many
 * rows would lock their counters in no one order, and its writers would queue on the same
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
    if (together) {
      const owners = new Map<string, Record<string, unknown>[]>()
      for (const row of rows) {
        const own = owners.get(row.owner as string)
        if (own) own.push(row)
        else owners.set(row.owner as string, [row])
      }
      await Promise.all(
        [...owners].map(([owner, own]) => indexAll(query, statements, namespace, owner, own)),
      )
    } else {
      for (const row of rows) {
        const movie = JSON.parse(row.movie as string) as Movie
        await query(statements.index, [namespace, row.owner, row.id, row.movie, termsText(movie)])
      }
    }
    if (rows.length < BACKFILL_BATCH) return
  }
}

/** Sets the terms of `owner`'s `rows` (`id`, `movie`) by one statement: the triggers count them. */
async function indexAll(
  query: Query,
  statements: SqlStatements['terms'],
  namespace: string,
  owner: string,
  rows: Record<string, unknown>[],
): Promise<void> {
  const terms = rows.map((row) => {
    const movie = JSON.parse(row.movie as string) as Movie
    return [row.id, row.movie, termsText(movie)]
  })
  await query(statements.indexAll, [namespace, owner, JSON.stringify(terms)])
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
  batch = BACKFILL_BATCH,
): Promise<number> {
  const rows = await query(statements.ownerUnindexed, [namespace, owner, batch])
  if (rows.length === 0) return 0
  await indexAll(query, statements, namespace, owner, rows)
  if (rows.length < batch) return 0
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
  /** The terms an add writes: none where adds leave them to be counted in later. */
  of(movie: Movie): string | null
  /** An add of `owner`'s was written without its terms (`of` gave none). */
  left(owner: string): void
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
  /** Counts in no more in the background; resolves once a batch under way is written. */
  close(): Promise<void>
}

/**
 * `addsLeave`: adds write no terms (SQLite on a file the driver opened, whose history records no
 * change for counting them in), and, where `idle` is given, this process counts a burst of them
 * in itself while it holds (sql/fold.ts). `readsCount`: every read first
 * counts in the rows without terms (SQLite: other processes on the file may leave them), in
 * group commits.
 */
export function termsCounting(
  query: Query,
  unbounded: Query,
  statements: SqlStatements['terms'],
  namespace: string,
  {
    addsLeave,
    readsCount,
    idle,
  }: { addsLeave: boolean; readsCount: boolean; idle?: () => boolean },
): TermsCounting {
  let backfilled: Promise<void> | undefined
  const added = async () => {
    if (readsCount) await countTerms(query, statements, namespace, true)
  }
  const folding =
    addsLeave && idle
      ? idleFolding(
          (owner) => countOwnerBatch(query, statements, namespace, owner, FOLD_BATCH),
          idle,
        )
      : undefined
  return {
    of: (movie) => (addsLeave ? null : termsText(movie)),
    left: (owner) => folding?.left(owner),
    close: async () => folding?.close(),
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
