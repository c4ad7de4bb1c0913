import type { LogDriver, StoreDriver } from './driver'
import { LogClosedError } from './errors'

/**
 * A store whose driver is opened on first use (a store URL: its client is imported and
 * connected then), so that `createMovieLog(url)` can answer at once. An open that failed is
 * tried again by the next call: the log works again once the store is back. Until it is
 * open, `classifyOpenFailure` (the opener's classifier) says which errors of opening it are
 * the store failing.
 */
export function lazyStore(
  kind: string,
  remote: boolean,
  open: () => Promise<StoreDriver>,
  classifyOpenFailure: StoreDriver['classifyFailure'],
): StoreDriver {
  let opened: StoreDriver | undefined
  let opening: Promise<StoreDriver> | undefined
  let closed = false
  const driver = (): Promise<StoreDriver> | StoreDriver => {
    if (opened) return opened
    if (closed) throw new LogClosedError()
    opening ??= open().then(
      (store) => {
        opened = store
        return store
      },
      (error: unknown) => {
        opening = undefined
        throw error
      },
    )
    return opening
  }
  return {
    kind,
    // Until it is open, what the opener said; then what the driver says (a SQLite file on a
    // synchronous library cannot hang, one on the sqlite3 package can).
    get remote() {
      return opened?.remote ?? remote
    },
    get atomic() {
      return opened?.atomic ?? true
    },
    log: (owner) => {
      // The opened driver's log for this owner, made once for this view (a log made per request
      // goes with it), and made again if the store was opened again.
      let opened: { store: StoreDriver; log: LogDriver } | undefined
      const logOf = async () => {
        const store = await driver()
        if (opened?.store !== store) opened = { store, log: store.log(owner) }
        return opened.log
      }
      return {
        put: async (movie) => (await logOf()).put(movie),
        get: async (id) => (await logOf()).get(id),
        listAfter: async (after, limit) => (await logOf()).listAfter(after, limit),
        listByDate: async (query, limit) => (await logOf()).listByDate(query, limit),
        replace: async (expected, next) => (await logOf()).replace(expected, next),
        remove: async (expected) => (await logOf()).remove(expected),
        create: async (key, value, ttlMs) => (await logOf()).create(key, value, ttlMs),
        read: async (key) => (await logOf()).read(key),
        write: async (key, value, ttlMs) => (await logOf()).write(key, value, ttlMs),
        changesAfter: async (after, limit) => (await logOf()).changesAfter(after, limit),
        latestChange: async () => (await logOf()).latestChange(),
        search: async (query, limit) => (await logOf()).search(query, limit),
        searchPage: async (query, page, limit) => (await logOf()).searchPage?.(query, page, limit),
        tallies: async (from, to) => (await logOf()).tallies(from, to),
      }
    },
    drop: async (owner) => (await driver()).drop(owner),
    owners: async (after, limit) => (await driver()).owners(after, limit),
    // Before the driver is there, the watch starts once it is (and wakes then, once).
    onChange: (owner, wake) => {
      if (opened) return opened.onChange(owner, wake)
      let stop: (() => void) | undefined
      let stopped = false
      Promise.resolve()
        .then(driver)
        .then(
          (store) => {
            if (stopped) return
            stop = store.onChange(owner, wake)
            wake()
          },
          // Opening failed: the watcher's next read raises why.
          () => wake(),
        )
      return () => {
        stopped = true
        stop?.()
      }
    },
    // Before the driver is there, what failed was opening it: the opener's classifier reads it.
    classifyFailure: (error) =>
      opened ? opened.classifyFailure(error) : classifyOpenFailure(error),
    close: async () => {
      closed = true
      const store = opened ?? (await opening?.catch(() => undefined))
      opened = undefined
      await store?.close()
    },
  }
}
