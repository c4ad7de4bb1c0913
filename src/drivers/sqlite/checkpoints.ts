/**
 * The write-ahead log's checkpoints, off the commits. SQLite copies the log into the database
 * (a checkpoint: the copy, then a sync of each file) inside the commit that takes the log past
 * 1000 pages, in the thread that committed: on node:sqlite the event loop, which every request
 * and live feed of the process then waits for, and on any library the writes of that commit
 * and of the next (issue 62). During an import from another process it is often this
 * process's commit of one add that copies the importer's pages (issue 55). Here a driver's
 * connections leave checkpoints to a connection of their own, run off the event loop after
 * commits; SQLite's own, in a commit, stays as a backstop for a log that grew past
 * BACKSTOP_PAGES all the same.
 */
import type { SqliteClient } from './client'

/**
 * The log's size, in pages, past which SQLite still checkpoints inside a commit: four times its
 * default. A checkpoint running beside commits copies what was there when it began, and the log
 * is reused from its start only once a commit finds everything copied, so under a steady stream
 * of commits it grows until this backstop copies the little left and lets it be reused.
 */
export const BACKSTOP_PAGES = 4000

/**
 * The least time from one checkpoint's start to the next: after a commit, a checkpoint begins
 * at once if none began this long ago, else when that much has passed, so a burst's last
 * commits are copied soon after it too (and the next commit can reuse the log from its start).
 */
const CHECKPOINT_EVERY_MS = 200

/** What runs `PRAGMA wal_checkpoint(PASSIVE)` off the event loop, on a connection of its own. */
export interface CheckpointRunner {
  checkpoint(): Promise<void>
  close(): Promise<void>
}

/**
 * `client` with a checkpoint begun after its commits (see CHECKPOINT_EVERY_MS), one at a time,
 * on the runner `open` makes for the first. A PASSIVE checkpoint never waits for a lock and
 * never holds up a commit or a read. One that fails is dropped, and its runner closed: the next
 * opens another, and SQLite's own checkpoint past the backstop keeps the log bounded meanwhile.
 */
export function checkpointing(
  client: SqliteClient,
  open: () => Promise<CheckpointRunner>,
): SqliteClient {
  let runner: Promise<CheckpointRunner> | undefined
  let running: Promise<void> | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let begunAt = Number.NEGATIVE_INFINITY
  // Commits since the last checkpoint began.
  let committed = false
  let closed = false
  const checkpoint = async () => {
    runner ??= open()
    const opened = runner
    try {
      await (await opened).checkpoint()
    } catch {
      if (runner === opened) runner = undefined
      await (await opened.catch(() => undefined))?.close().catch(() => {})
    }
  }
  const due = () => {
    if (closed || running || timer || !committed) return
    const wait = begunAt + CHECKPOINT_EVERY_MS - Date.now()
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = undefined
        due()
      }, wait)
      // Never what keeps the process running.
      ;(timer as { unref?: () => void }).unref?.()
      return
    }
    committed = false
    begunAt = Date.now()
    running = checkpoint().finally(() => {
      running = undefined
      due()
    })
  }
  return {
    ...client,
    commit: async (writes, holdMs) => {
      const outcomes = await client.commit(writes, holdMs)
      committed = true
      due()
      return outcomes
    },
    close: async () => {
      closed = true
      clearTimeout(timer)
      await running
      await (await runner?.catch(() => undefined))?.close()
      await client.close()
    },
  }
}
