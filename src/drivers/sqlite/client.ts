/**
 * One SQLite connection as the SQLite driver uses it, whichever library opened it (node:sqlite,
 * bun:sqlite, the sqlite3 package), and the shape of the transaction that commits a group of
 * writes, written once for all of them.
 */

type Rows = Record<string, unknown>[]

/** A statement and its parameters (`?1`, `?2`, … in order). */
export type SqlStep = readonly [string, readonly unknown[]]

/** A write: its statements, atomic together (a put is one; a drop several). */
export type SqlWrite = readonly SqlStep[]

/** What became of one write of a commit: the rows of its last statement, or its own error. */
export type WriteOutcome =
  | { ok: true; rows: Record<string, unknown>[] }
  | { ok: false; error: unknown }

/** The libraries a `sqlite://` store can run on. */
export type SqliteClientName = 'node:sqlite' | 'bun:sqlite' | 'sqlite3'

export interface SqliteClient {
  name: SqliteClientName
  /** Runs one statement outside any write group (reads, and the schema at open). */
  query(sql: string, parameters: readonly unknown[]): Promise<Record<string, unknown>[]>
  /**
   * Commits writes together (see `commitSteps`): resolves once the commit is on disk, with one
   * outcome per write it took, in order: every write, or the first ones once it has held the
   * write lock `holdMs` (at least one), the caller committing the others after. Rejects when
   * the commit itself failed, which fails every write in it.
   */
  commit(writes: readonly SqlWrite[], holdMs?: number): Promise<WriteOutcome[]>
  /**
   * `PRAGMA data_version`, read at once: it moves when another connection commits (not this
   * one). Only a synchronous library has it; its commits run in one go on this connection.
   */
  dataVersion?(): number
  close(): Promise<void>
}

// Errors after which SQLite may have rolled back the whole transaction (its documentation:
// a full disk, an I/O error, a lock, no memory, an interrupt), or the file is not usable.
const ENDS_TRANSACTION =
  /^SQLITE_(FULL|IOERR|BUSY|LOCKED|NOMEM|INTERRUPT|CORRUPT|NOTADB|CANTOPEN|READONLY|PROTOCOL)/

/**
 * The statements of one group commit, as a generator: it yields each statement to run and is
 * given its rows back (or its error thrown in), so a synchronous library runs it in one go and
 * an asynchronous one awaits each. `BEGIN IMMEDIATE` takes the write lock first (another
 * process's commit makes it SQLITE_BUSY at once, retried on a timer by `sqlite/busy.ts`; never a
 * failure midway on a lock upgrade). A
 * write of one statement that fails (a constraint, a bug) is undone alone by SQLite; a write of
 * several runs under a savepoint, undone alone too. The others still commit. An error that may
 * have taken the transaction with it (a full disk, an I/O error) ends the whole commit: every
 * write in it fails, and nothing of it is kept. Once the lock has been held `holdMs` (by `now`),
 * the writes done are committed and the others left out: the outcomes are of the first writes.
 */
export function* commitSteps(
  writes: readonly SqlWrite[],
  holdMs = Number.POSITIVE_INFINITY,
  now: () => number = () => performance.now(),
): Generator<SqlStep, WriteOutcome[], Rows> {
  const none: readonly unknown[] = []
  yield ['BEGIN IMMEDIATE', none]
  const lockedAt = now()
  try {
    const outcomes: WriteOutcome[] = []
    for (const steps of writes) {
      if (outcomes.length > 0 && now() - lockedAt >= holdMs) break
      const alone = steps.length === 1
      if (!alone) yield ['SAVEPOINT movie_log_write', none]
      try {
        let rows: Rows = []
        for (const step of steps) rows = yield step
        if (!alone) yield ['RELEASE movie_log_write', none]
        outcomes.push({ ok: true, rows })
      } catch (error) {
        if (ENDS_TRANSACTION.test(String((error as { code?: unknown }).code))) throw error
        if (!alone) {
          yield ['ROLLBACK TO movie_log_write', none]
          yield ['RELEASE movie_log_write', none]
        }
        outcomes.push({ ok: false, error })
      }
    }
    yield ['COMMIT', none]
    return outcomes
  } catch (error) {
    try {
      yield ['ROLLBACK', none]
    } catch {
      // No transaction left to roll back: SQLite ended it with the error.
    }
    throw error
  }
}

/**
 * Runs `commitSteps` with `run`. A `run` that answers at once (a synchronous library) is never
 * awaited, so the whole commit runs in one go, with nothing else on the connection in between.
 */
export async function runCommit(
  writes: readonly SqlWrite[],
  run: (sql: string, parameters: readonly unknown[]) => Rows | Promise<Rows>,
  holdMs?: number,
): Promise<WriteOutcome[]> {
  const steps = commitSteps(writes, holdMs)
  let next = steps.next()
  while (!next.done) {
    let rows: Rows
    try {
      const ran = run(...next.value)
      rows = ran instanceof Promise ? await ran : ran
    } catch (error) {
      next = steps.throw(error)
      continue
    }
    next = steps.next(rows)
  }
  return next.value
}
