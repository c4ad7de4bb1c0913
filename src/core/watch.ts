import type { LogDriver, StoredChange } from './driver'
import { InvalidPageRequestError } from './errors'

/**
 * A change a watch reports: a movie `added`, `updated` (each with the movie as stored) or
 * `deleted` (with its id), or `reset`: the log's history no longer reaches back to where the
 * watch was, so read the list again. Every change has the `id` to resume after. Changes are
 * frozen: the watches of one owner in a process share them.
 *
 * @example
 * ```ts
 * for await (const change of log.watch()) {
 *   if (change.type === 'reset') movies = (await log.listMovies()).movies
 *   else console.log(change.type, change.movie.id, change.id)
 * }
 * ```
 */
export type LogChange = StoredChange | { type: 'reset'; id: string }

/**
 * Options of `log.watch`.
 *
 * @example
 * ```ts
 * const stop = new AbortController()
 * log.watch({ after: lastSeenId, signal: stop.signal })
 * ```
 */
export interface WatchOptions {
  /**
   * Report the changes after this one (a change's `id`): exactly those, in order, then the
   * new ones; a `reset` first when the history kept no longer reaches it. Without it (or
   * `''`), the changes from now on. One later than the latest change the log has made is none
   * of its changes: the watch fails with an `InvalidPageRequestError` naming `after`.
   */
  after?: string
  /** Ends the watch when it aborts: the iteration stops, as after a `break`. */
  signal?: AbortSignal
}

/** The history of one owner's log, as its watches read it. */
export type ChangeReader = Pick<LogDriver, 'changesAfter' | 'latestChange'>

/** What a watch reads: one owner's log, guarded as every call of the core is, and its wake-ups. */
export interface WatchSource {
  log: ChangeReader
  /** The driver's `onChange`, for this owner. */
  onChange(wake: () => void): () => void
}

// Changes read from the history at a time.
const PAGE_SIZE = 500

// The start of each watch the core made, for the HTTP feed to say before the first change.
const starts = new WeakMap<object, () => Promise<string | undefined>>()

/**
 * The changes of a log as an async iterable: each iteration is a watch of its own, which holds
 * nothing but its wake-up between changes (no timer, no buffer: a consumer that reads slowly
 * reads the history later). Store failures raise `StoreUnavailableError`.
 */
export function watchChanges(
  source: WatchSource,
  options: WatchOptions = {},
): AsyncIterable<LogChange> {
  const { after, signal } = options
  if (after !== undefined && typeof after !== 'string') {
    throw new TypeError(`movie-log: watch's after must be a change's id, not ${String(after)}`)
  }
  return { [Symbol.asyncIterator]: () => openWatch(source, after || undefined, signal) }
}

/**
 * Where a watch from `watchChanges` starts (the id of the latest change before it, or its
 * `after`): read before its first change, and `undefined` when the log has kept none. Starts
 * the watch; a store failure rejects (and ends it). `undefined` for any other iterator.
 */
export function watchStartOf(
  iterator: AsyncIterator<LogChange>,
): Promise<string | undefined> | undefined {
  return starts.get(iterator)?.()
}

/**
 * Makes `begin` what `watchStartOf(iterator)` calls: how a watch made elsewhere (the client's,
 * which learns its start from the feed's first event) says where it starts.
 */
export function setWatchStart(iterator: object, begin: () => Promise<string | undefined>): void {
  starts.set(iterator, begin)
}

function openWatch(
  source: WatchSource,
  after: string | undefined,
  signal: AbortSignal | undefined,
): AsyncIterator<LogChange> {
  let closed = false
  let stop: (() => void) | undefined
  let woken = false
  let wakeUp: (() => void) | undefined
  const wake = () => {
    woken = true
    wakeUp?.()
  }
  const close = () => {
    closed = true
    stop?.()
    stop = undefined
    signal?.removeEventListener('abort', close)
    wakeUp?.()
  }
  // Heard from before the first read, so no change falls between the read and the listening.
  let starting: Promise<string | undefined> | undefined
  const begin = () => {
    starting ??= (async () => {
      if (closed || signal?.aborted) {
        closed = true
        return undefined
      }
      signal?.addEventListener('abort', close)
      try {
        stop = source.onChange(wake)
        const latest = await source.log.latestChange()
        if (after === undefined) return latest
        if (latest !== undefined && isLaterChange(after, latest)) {
          throw new InvalidPageRequestError([
            { path: 'after', message: 'is not a change of this log: it is later than its latest' },
          ])
        }
        return after
      } catch (error) {
        close()
        throw error
      }
    })()
    return starting
  }
  const changed = () =>
    new Promise<void>((resolve) => {
      if (woken || closed) resolve()
      else wakeUp = resolve
    }).finally(() => {
      wakeUp = undefined
    })

  async function* run(): AsyncGenerator<LogChange, undefined> {
    try {
      let position = await begin()
      for (;;) {
        // Read until caught up; a wake-up meanwhile is read by the next read.
        for (;;) {
          if (closed) return
          woken = false
          // Without a position (the log kept no change when the watch began, or none after a
          // drop's reset), from the oldest change kept: every change the log has had since.
          const read = await source.log.changesAfter(position, PAGE_SIZE)
          if (closed) return
          if (read.reset) {
            position = await source.log.latestChange()
            if (closed) return
            yield { type: 'reset', id: position ?? '' }
            continue
          }
          for (const change of read.changes) {
            position = change.id
            yield change
            if (closed) return
          }
          if (read.changes.length < PAGE_SIZE) break
        }
        await changed()
      }
    } finally {
      close()
    }
  }

  const changes = run()
  const iterator: AsyncIterator<LogChange> & AsyncIterable<LogChange> = {
    next: () => changes.next(),
    // Ends a watch waiting for a change at once: the pending `next` resolves done.
    return: async () => {
      close()
      return changes.return(undefined)
    },
    [Symbol.asyncIterator]: () => iterator,
  }
  starts.set(iterator, begin)
  return iterator
}

/**
 * The form of the ids every store gives its changes: a number (memory, SQL) or a Redis stream
 * id `ms-seq`, compared as numbers part by part. An id of another form is left to the store.
 */
export const CHANGE_ID = /^(\d{1,20})(?:-(\d{1,20}))?$/

function isLaterChange(id: string, latest: string): boolean {
  const a = CHANGE_ID.exec(id)
  const b = CHANGE_ID.exec(latest)
  if (!a || !b) return false
  const major = BigInt(a[1] as string) - BigInt(b[1] as string)
  if (major !== 0n) return major > 0n
  return BigInt(a[2] ?? 0) > BigInt(b[2] ?? 0)
}
