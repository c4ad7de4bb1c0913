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
 * When a checkpoint begins: once this client has committed CHECKPOINT_WRITES writes since the
 * last one began (about SQLite's own 1000 pages: an add writes one page or two), and at least
 * CHECKPOINT_EVERY_MS after it; and, for the last commits of a burst, once no commit has come for
 * QUIET_MS. Counted by what this process wrote: a server adding a movie now and then beside an
 * import in another process leaves the copying of the importer's pages to the importer.
 */
const CHECKPOINT_WRITES = 500
const CHECKPOINT_EVERY_MS = 200
const QUIET_MS = 1000

/** What runs `PRAGMA wal_checkpoint(PASSIVE)` off the event loop, on a connection of its own. */
export interface CheckpointRunner {
  checkpoint(): Promise<void>
  close(): Promise<void>
}

/**
 * `client` with checkpoints begun after its commits (see CHECKPOINT_WRITES), one at a time, on
 * the runner `open` makes for the first. A PASSIVE checkpoint never waits for a lock and never
 * holds up a commit or a read. One that fails is dropped, and its runner closed: the next opens
 * another, and SQLite's own checkpoint past the backstop keeps the log bounded meanwhile.
 */
export function checkpointing(
  client: SqliteClient,
  open: () => Promise<CheckpointRunner>,
): SqliteClient {
  let runner: Promise<CheckpointRunner> | undefined
  let running: Promise<void> | undefined
  let quiet: ReturnType<typeof setTimeout> | undefined
  let begunAt = Number.NEGATIVE_INFINITY
  // Writes committed since the last checkpoint began.
  let uncopied = 0
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
  const begin = () => {
    uncopied = 0
    begunAt = Date.now()
    running = checkpoint().finally(() => {
      running = undefined
      due()
    })
  }
  const due = () => {
    clearTimeout(quiet)
    quiet = undefined
    if (closed || running || uncopied === 0) return
    const since = Date.now() - begunAt
    if (uncopied >= CHECKPOINT_WRITES && since >= CHECKPOINT_EVERY_MS) return begin()
    quiet = setTimeout(begin, Math.max(QUIET_MS, CHECKPOINT_EVERY_MS - since))
    // Never what keeps the process running.
    ;(quiet as { unref?: () => void }).unref?.()
  }
  return {
    ...client,
    commit: async (writes, holdMs) => {
      const outcomes = await client.commit(writes, holdMs)
      uncopied += outcomes.length
      due()
      return outcomes
    },
    close: async () => {
      closed = true
      clearTimeout(quiet)
      await running
      await (await runner?.catch(() => undefined))?.close()
      await client.close()
    },
  }
}
