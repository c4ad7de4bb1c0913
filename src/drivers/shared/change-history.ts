import type { ChangeRead, StoredChange } from '../../core/driver'
import type { Movie } from '../../core/movie'

/** The most changes one log's history keeps: older ones are dropped, and a reader past them resets. */
export const HISTORY_LIMIT = 1000

/** A change as a write describes it, before the history gives it its id. */
export type NewChange =
  | { type: 'added' | 'updated'; movie: Movie }
  | { type: 'deleted'; movie: { id: string } }

interface Entry {
  change: StoredChange
  // Appended with its write but not yet known to have been stored: no reader sees it, nor any
  // change after it, until the write is done (kept) or failed (taken out).
  pending: boolean
}

interface Histories {
  /** The last id given, shared by every log of the namespace: ids never repeat, even after a drop. */
  last: number
  logs: Map<string, Entry[]>
  listeners: Map<string, Set<() => void>>
}

/**
 * The change history of the logs of one store and namespace, in this process: what the memory
 * and scan drivers keep. Each log is named by its key prefix (`KeyvLayout.movies`).
 */
export interface ChangeHistory {
  /**
   * Appends a change, unseen until the write it describes settles: `settle(true)` shows it,
   * `settle(false)` (the write failed) takes it out. Call it in the same synchronous step as
   * the write's check, so the history's order is the order of the writes.
   */
  begin(log: string, change: NewChange): (written: boolean) => void
  /** Appends the change of a write already done: `begin` and `settle(true)` in one step. */
  append(log: string, change: NewChange): void
  /** The changes after `after` (see `LogDriver.changesAfter`). */
  read(log: string, after: string | undefined, limit: number): ChangeRead
  /** The id of the latest change a reader can see, or `undefined`. */
  latest(log: string): string | undefined
  /** Forgets the log's changes and wakes its readers (who then reset). */
  drop(log: string): void
  /** Calls `wake` after each change of the log; returns the function that stops it. */
  listen(log: string, wake: () => void): () => void
}

// Per store object (a Map, a keyv store) and namespace: every driver on it in this process
// shares one history, as they share its movies.
const byStore = new WeakMap<object, Map<string, Histories>>()

// Zero-padded, so ids compare as strings in the order they were given.
const idOf = (n: number) => String(n).padStart(16, '0')

/** The history of `store` and `namespace`, shared by every driver on them in this process. */
export function changeHistory(store: object, namespace: string): ChangeHistory {
  let namespaces = byStore.get(store)
  if (!namespaces) {
    namespaces = new Map()
    byStore.set(store, namespaces)
  }
  let kept = namespaces.get(namespace)
  if (!kept) {
    kept = { last: 0, logs: new Map(), listeners: new Map() }
    namespaces.set(namespace, kept)
  }
  const histories = kept
  const notify = (log: string) => {
    const listeners = histories.listeners.get(log)
    if (listeners) for (const wake of listeners) wake()
  }
  const push = (log: string, change: NewChange, pending: boolean): Entry => {
    let entries = histories.logs.get(log)
    if (!entries) {
      entries = []
      histories.logs.set(log, entries)
    }
    // Written out, not spread: every change gets one shape.
    const stored = { id: idOf(++histories.last), type: change.type, movie: change.movie }
    const entry: Entry = { change: stored as StoredChange, pending }
    entries.push(entry)
    if (entries.length > HISTORY_LIMIT) entries.shift()
    return entry
  }
  return {
    append: (log, change) => {
      push(log, change, false)
      notify(log)
    },
    begin: (log, change) => {
      const entry = push(log, change, true)
      return (written) => {
        if (!entry.pending) return
        entry.pending = false
        if (!written) {
          // Taken out of whichever array holds it now (a drop may have replaced it).
          const current = histories.logs.get(log)
          const at = current?.lastIndexOf(entry) ?? -1
          if (at >= 0) current?.splice(at, 1)
        }
        notify(log)
      }
    },
    read: (log, after, limit) => {
      const entries = histories.logs.get(log) ?? []
      // Without `after`, from the oldest kept: as if `after` were the change before it.
      const at = after === undefined ? -1 : indexOf(entries, after)
      if (after !== undefined && at < 0) return { changes: [], reset: true }
      const changes: StoredChange[] = []
      for (let next = at + 1; next < entries.length && changes.length < limit; next++) {
        const entry = entries[next] as Entry
        if (entry.pending) break
        changes.push(entry.change)
      }
      return { changes, reset: false }
    },
    latest: (log) => {
      const entries = histories.logs.get(log) ?? []
      let latest: string | undefined
      for (const entry of entries) {
        if (entry.pending) break
        latest = entry.change.id
      }
      return latest
    },
    drop: (log) => {
      histories.logs.delete(log)
      notify(log)
    },
    listen: (log, wake) => {
      let listeners = histories.listeners.get(log)
      if (!listeners) {
        listeners = new Set()
        histories.listeners.set(log, listeners)
      }
      const kept = listeners
      // A function of its own per call: the same `wake` given twice is stopped twice.
      const listener = () => wake()
      kept.add(listener)
      return () => {
        kept.delete(listener)
        if (kept.size === 0 && histories.listeners.get(log) === kept) {
          histories.listeners.delete(log)
        }
      }
    },
  }
}

/**
 * Where the change `id` is in `entries` (sorted by id), or -1: an id that is not one of this
 * log's kept changes (older than the oldest, of another log, malformed) is not found.
 */
function indexOf(entries: Entry[], id: string): number {
  let low = 0
  let high = entries.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const found = (entries[middle] as Entry).change.id
    if (found === id) return middle
    if (found < id) low = middle + 1
    else high = middle - 1
  }
  return -1
}
