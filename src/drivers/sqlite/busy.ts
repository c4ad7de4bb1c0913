/**
 * Another process's write lock, waited for off the event loop. SQLite's busy handler waits for a
 * lock by sleeping in the thread that asked: on node:sqlite and bun:sqlite, the process's only
 * thread, so every request and every live feed of the process stopped with it (issue 55). The
 * driver's connections take locks with no busy timeout, and a statement or commit answered
 * SQLITE_BUSY is tried again on a timer until the busy timeout has passed.
 */
import type { SqliteClient } from './client'

/** How long a statement or commit waits for another process's write lock before it fails. */
export const BUSY_TIMEOUT_MS = 5000

/**
 * Between two tries: short, since another process's lock comes free only between its commits,
 * and SQLite has no queue that would give it to the process that waited longest.
 */
const RETRY_MS = 1

/**
 * After a commit, while other processes write too: how long this client leaves the lock free
 * before its next commit, so that a process waiting for it (trying every RETRY_MS) gets a turn.
 * A bulk writer (`movie-log import`) committing back to back would otherwise keep it all along.
 */
const TURN_MS = 3

/** How long after a try found the lock taken this client still counts as sharing it. */
const SHARED_FOR_MS = 1000

/** Whether SQLite refused for a lock another connection holds (SQLITE_BUSY, or an extended code of it). */
export function isBusy(error: unknown): boolean {
  return /^SQLITE_BUSY/.test(String((error as { code?: unknown } | null)?.code))
}

/**
 * Runs `attempt`, and again after RETRY_MS each time it fails SQLITE_BUSY, until `timeoutMs`
 * have passed since the first try: the last error is then the answer. A commit that failed
 * SQLITE_BUSY was rolled back whole (see `commitSteps`), so trying it again stores it once.
 */
export async function whenFree<T>(
  attempt: () => Promise<T>,
  onBusy: () => void = () => {},
  timeoutMs: number = BUSY_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await attempt()
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error
      onBusy()
    }
    await sleep(RETRY_MS)
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/**
 * The client with its statements and commits tried again while another process holds the lock
 * (`whenFree`), and, while it shares the lock (a try found it taken within SHARED_FOR_MS), each
 * commit at least TURN_MS after the one before ended. Its connections must have no busy timeout
 * of their own (`PRAGMA busy_timeout = 0`), or a try would wait in SQLite's busy handler,
 * blocking the thread.
 */
export function patientClient(client: SqliteClient): SqliteClient {
  let sharedAt = Number.NEGATIVE_INFINITY
  let freedAt = Number.NEGATIVE_INFINITY
  const shared = () => {
    sharedAt = performance.now()
  }
  return {
    ...client,
    query: (sql, parameters) => whenFree(() => client.query(sql, parameters), shared),
    commit: async (writes, holdMs) => {
      const now = performance.now()
      if (now - sharedAt < SHARED_FOR_MS && now - freedAt < TURN_MS) {
        await sleep(TURN_MS - (now - freedAt))
      }
      try {
        return await whenFree(() => client.commit(writes, holdMs), shared)
      } finally {
        freedAt = performance.now()
      }
    },
  }
}
