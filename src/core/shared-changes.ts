import type { ChangeRead, StoreDriver } from './driver'
import type { ChangeReader, WatchSource } from './watch'

// Reads one owner keeps for its watches between two wake-ups: the watches that are caught up
// share one; a few more serve watches still catching up, each on a page of its own.
const KEPT_READS = 8

interface OwnerWatches {
  wakes: Set<() => void>
  stop: () => void
  // The reads begun since the last wake-up, by where they start, until just after they settle.
  // A read begun after a wake-up sees every change that woke it, so every watch woken no later
  // may take its answer.
  reads: Map<string, Promise<ChangeRead>>
  latest: Promise<string | undefined> | undefined
}

/**
 * Forgets a read once it has settled and the watches woken with it have asked (they ask in the
 * same turn of the event loop): an owner whose diary is quiet keeps no page of its history.
 */
function forgetSoon(read: Promise<unknown>, forget: () => void): void {
  const later = () => setTimeout(forget, 0)
  read.then(later, later)
}

// Every watch at one place gets the same objects: none may change what the others see.
function frozen(read: ChangeRead): ChangeRead {
  for (const change of read.changes) {
    Object.freeze(change.movie)
    Object.freeze(change)
  }
  return read
}

/**
 * The watch sources of one store, shared by every watch of an owner in this process: one
 * wake-up listener on the store per owner, and one store read per wake-up for the watches at
 * one place in the history. A thousand feeds of one diary read a change once, not a thousand
 * times, and get the same change objects (so each event is encoded once, too).
 */
export function createSharedWatchSources(
  store: Pick<StoreDriver, 'onChange'>,
): (owner: string, log: ChangeReader) => WatchSource {
  const owners = new Map<string, OwnerWatches>()

  const listen = (owner: string, wake: () => void): (() => void) => {
    let watches = owners.get(owner)
    if (!watches) {
      const opened: OwnerWatches = {
        wakes: new Set(),
        stop: () => {},
        reads: new Map(),
        latest: undefined,
      }
      owners.set(owner, opened)
      opened.stop = store.onChange(owner, () => {
        opened.reads.clear()
        opened.latest = undefined
        for (const wakeOne of [...opened.wakes]) {
          try {
            wakeOne()
          } catch {
            // A watch's own failure is its own: the others are still woken.
          }
        }
      })
      watches = opened
    }
    const own = watches
    // Each registration is its own, even of the same function twice.
    const entry = () => wake()
    own.wakes.add(entry)
    return () => {
      own.wakes.delete(entry)
      if (own.wakes.size === 0 && owners.get(owner) === own) {
        owners.delete(owner)
        own.stop()
      }
    }
  }

  const shared = (owner: string, log: ChangeReader): ChangeReader => ({
    changesAfter: (after, limit) => {
      const watches = owners.get(owner)
      if (!watches) return log.changesAfter(after, limit)
      const key = `${limit}:${after ?? ''}`
      const kept = watches.reads.get(key)
      if (kept) return kept
      const read = log.changesAfter(after, limit).then(frozen)
      if (watches.reads.size >= KEPT_READS) {
        watches.reads.delete(watches.reads.keys().next().value as string)
      }
      watches.reads.set(key, read)
      forgetSoon(read, () => {
        if (watches.reads.get(key) === read) watches.reads.delete(key)
      })
      return read
    },
    latestChange: () => {
      const watches = owners.get(owner)
      if (!watches) return log.latestChange()
      if (watches.latest) return watches.latest
      const read = log.latestChange()
      watches.latest = read
      forgetSoon(read, () => {
        if (watches.latest === read) watches.latest = undefined
      })
      return read
    },
  })

  return (owner, log) => ({
    log: shared(owner, log),
    onChange: (wake) => listen(owner, wake),
  })
}
