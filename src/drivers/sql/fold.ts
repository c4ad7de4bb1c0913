/**
 * SQLite's adds leave their search and statistics terms to be counted in later (issue 36: an
 * add costs about half as much). Left to the next read alone, a burst of adds is that one read's
 * work: after 10,000 adds the adder's first search counted in 10,000 rows (issue 61). So once
 * an owner's adds in this process have left `FOLD_AFTER` rows, it counts that owner's backlog in
 * itself, a batch at a time, each only while the store is idle (no write waiting, and none
 * committed in the last few milliseconds: a server taking adds back to back never is). Adds
 * keep going first, and a read inherits about `FOLD_AFTER` rows at most, plus what a store too
 * busy to idle left. Another process's adds are its own to fold; a read still counts in
 * whatever is left.
 */
import { createLru } from '../../core/lru'

/** Adds left without terms, per owner, after which their backlog is counted in. */
export const FOLD_AFTER = 500

/** How long a fold waits before it looks again for an idle store. */
const IDLE_CHECK_MS = 10

/** Owners whose adds are counted at once; past it the least recent are left to their reads. */
const OWNERS_COUNTED = 1024

export interface IdleFolding {
  /** An add of `owner`'s was written without its terms. */
  left(owner: string): void
  /** Folds no more; resolves once a batch under way is written. */
  close(): Promise<void>
}

/**
 * `foldBatch` counts in one batch of an owner's rows and answers how many are left; `idle` says
 * whether the store is idle (SQLite's group commit: no write waiting, none a moment ago).
 */
export function idleFolding(
  foldBatch: (owner: string) => Promise<number>,
  idle: () => boolean,
): IdleFolding {
  const leftBy = createLru<string, number>(OWNERS_COUNTED)
  const due = new Set<string>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let folding: Promise<void> | undefined
  let closed = false
  const foldOne = async () => {
    const [owner] = due
    if (owner === undefined || !idle()) return
    // A failure leaves the rows to the owner's next read, which counts them in (and says so).
    const rest = await foldBatch(owner).catch(() => 0)
    if (rest === 0) {
      due.delete(owner)
      leftBy.delete(owner)
    }
  }
  const schedule = () => {
    if (closed || timer || folding || due.size === 0) return
    timer = setTimeout(() => {
      timer = undefined
      folding = foldOne().finally(() => {
        folding = undefined
        schedule()
      })
    }, IDLE_CHECK_MS)
  }
  return {
    left: (owner) => {
      const count = (leftBy.get(owner) ?? 0) + 1
      leftBy.set(owner, count)
      if (count < FOLD_AFTER || due.has(owner)) return
      due.add(owner)
      schedule()
    },
    close: async () => {
      closed = true
      clearTimeout(timer)
      await folding
    },
  }
}
