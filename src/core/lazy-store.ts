import type { LogDriver, StoreDriver } from './driver'
import { LogClosedError } from './errors'
import { callLog, wrapLog } from './log-methods'

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
      let view: { store: StoreDriver; log: LogDriver } | undefined
      const logOf = (store: StoreDriver) => {
        if (view?.store !== store) view = { store, log: store.log(owner) }
        return view.log
      }
      // Once the store is open, a call goes straight to its log, without waiting a turn for it.
      const use = (call: (log: LogDriver) => Promise<unknown>): Promise<unknown> => {
        try {
          const store = driver()
          return store instanceof Promise
            ? store.then((opened) => call(logOf(opened)))
            : call(logOf(store))
        } catch (error) {
          return Promise.reject(error)
        }
      }
      return wrapLog((method, args) => use((log) => callLog(log, method, args)))
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
