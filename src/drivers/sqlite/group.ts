/**
 * Group commit on SQLite: the writes that arrive together (in one turn of the event loop, or
 * while the commit before them is being written) share one transaction and one sync to disk.
 * A disk syncs a few thousand times a second; a commit per write would cap adds there.
 * Not redis/puts.ts's batcher, though both gather one turn's writes: SQLite has one writer, so
 * a group waits for the commit before it and grows meanwhile (what makes it a group commit),
 * whereas Redis takes calls side by side and a script writes one owner's hash slot, so its
 * batches are by owner and sent at once. A batcher shared by both would be their two policies
 * behind a flag.
 */
import { setImmediate } from 'node:timers'
import type { SqliteClient, SqlWrite } from './client'

/** The most writes one commit holds: bounds how long a commit keeps the others waiting. */
const MOST_PER_COMMIT = 256

/**
 * The longest a commit keeps the file's write lock: past it, it commits the writes it has done
 * and leaves the rest of its group first in the next commit (which, while another process
 * writes the file too, waits its turn: `sqlite/busy.ts`). The bound on how long an import of
 * any size makes the adds of another process on the file wait (issue 55): a commit of 64
 * imported movies held the lock 2 ms on node:sqlite and 5 ms on sqlite3, and ten times that on
 * a busy machine. A group of the server's adds takes well under it.
 */
export const HOLD_MS = 5

/**
 * How long after its last commit the store counts as idle (`idle`), for work that waits for an
 * idle store (sql/fold.ts). A server taking adds as fast as they come (32 connections) is idle
 * for well under a millisecond between two commits; work slipped into every such gap made each
 * add cost 60% more CPU, 6,500 adds a second where it takes 10,000 to 13,000 with this (issue
 * 62). Adds at 300 a second leave 3 ms between commits, time enough (5 ms was not: the fold
 * never ran, and the adder's first search counted in 10,000 rows, 1.3 s of CPU, against 0.1).
 */
export const QUIET_MS = 2

type Waiting = {
  steps: SqlWrite
  done: (rows: Record<string, unknown>[]) => void
  fail: (error: unknown) => void
}

export interface GroupCommit {
  /** Resolves with the rows of the write's last statement once its commit is on disk. */
  write(steps: SqlWrite): Promise<Record<string, unknown>[]>
  /** Resolves once every write asked for so far has been answered. */
  drained(): Promise<void>
  /** The commits tried so far: moves before any write of a commit is answered. */
  commits(): number
  /**
   * Whether no write is waiting, about to be committed or being committed, and none was
   * committed in the last QUIET_MS.
   */
  idle(): boolean
}

/**
 * Commits the writes given to it in groups, one commit at a time, each write answered with its
 * own outcome once its commit is done (a write that failed alone fails alone; a commit that
 * failed fails the writes in it, and the next group is tried on its own). A commit that held
 * the write lock for `holdMs` leaves the rest of its group first in the next.
 */
export function createGroupCommit(
  client: SqliteClient,
  { holdMs = HOLD_MS }: { holdMs?: number } = {},
): GroupCommit {
  const waiting: Waiting[] = []
  let committing: Promise<void> | undefined
  let scheduled = false
  let commits = 0
  let lastEnded = Number.NEGATIVE_INFINITY
  const commitNext = async () => {
    const group = waiting.splice(0, MOST_PER_COMMIT)
    try {
      const outcomes = await client
        .commit(
          group.map((each) => each.steps),
          holdMs,
        )
        .finally(() => {
          commits++
          lastEnded = performance.now()
        })
      // The writes the commit left out (it held the lock long enough) go first in the next.
      waiting.unshift(...group.splice(outcomes.length))
      group.forEach((each, at) => {
        const outcome = outcomes[at]
        if (outcome?.ok) each.done(outcome.rows)
        else each.fail(outcome?.error)
      })
    } catch (error) {
      for (const each of group) each.fail(error)
    }
  }
  const schedule = () => {
    if (committing || scheduled) return
    scheduled = true
    // After the I/O of this turn: the requests that arrived with this one join its commit.
    setImmediate(() => {
      scheduled = false
      committing = commitNext().finally(() => {
        committing = undefined
        if (waiting.length > 0) schedule()
      })
    })
  }
  return {
    write: (steps) =>
      new Promise((done, fail) => {
        waiting.push({ steps, done, fail })
        schedule()
      }),
    commits: () => commits,
    idle: () =>
      !committing &&
      !scheduled &&
      waiting.length === 0 &&
      performance.now() - lastEnded >= QUIET_MS,
    drained: async () => {
      while (committing || scheduled || waiting.length > 0) {
        await (committing ?? new Promise((done) => setImmediate(done)))
      }
    },
  }
}
