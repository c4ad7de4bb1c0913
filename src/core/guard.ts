import type { LogDriver, StoreDriver } from './driver'
import {
  MovieLogError,
  type StoreFailure,
  StoreTimeoutError,
  StoreUnavailableError,
} from './errors'
import { callLog, LOG_METHODS, wrapLog } from './log-methods'

/**
 * One owner's log as the core calls it: a call that hangs past `timeoutMs` (on a store that can
 * hang), or fails because the store failed, raises `StoreUnavailableError` with the store's
 * error as its cause. Any other error (a bug, ours or a driver's) passes unchanged, to become a
 * 500 that is logged, never a 503 that hides it.
 */
export function guardLog(
  log: LogDriver,
  store: Pick<StoreDriver, 'remote' | 'classifyFailure'>,
  timeoutMs: number,
): LogDriver {
  const guard = guarded(store, timeoutMs)
  // Before a search or count: the owner's adds whose terms were left to the reads, a batch per
  // store call, while each makes progress (a writer adding faster is left to the read itself).
  const counted = async () => {
    const countPending = log.countPending
    if (!countPending) return
    for (let before = Number.POSITIVE_INFINITY; ; ) {
      const left = await guard('list', () => countPending())
      // None left, none gained, or a driver that does not count (undefined): read as it is.
      if (!left || left >= before) return
      before = left
    }
  }
  return wrapLog((method, args) => {
    const operation = LOG_METHODS[method]
    const call = () => callLog(log, method, args)
    return operation === 'terms'
      ? counted().then(() => guard('list', call))
      : guard(operation, call)
  })
}

// The operations that change what is stored: timed out, they may land all the same.
const WRITES = new Set(['set', 'replace', 'delete', 'drop'])

/** A store call as the core makes it, bounded and with store failures raised as such. */
export type Guard = <T>(operation: string, call: () => Promise<T>) => Promise<T>

/** Guards store-wide calls (`owners`) as `guardLog` guards one owner's. */
export function guarded(
  store: Pick<StoreDriver, 'remote' | 'classifyFailure'>,
  timeoutMs: number,
): Guard {
  const failed = (operation: string, error: unknown) => {
    // movie-log's own errors say what they are: never read again as the store failing.
    if (MovieLogError.is(error)) return error
    const failure: StoreFailure | undefined =
      error instanceof StoreTimeoutError ? { reason: 'timeout' } : store.classifyFailure(error)
    if (!failure) return error
    // A write the store did not answer in time is not known to have failed: the call goes on
    // (the store cancels it where it can, PostgreSQL by its statement timeout), and may land.
    const mayHaveLanded = failure.reason === 'timeout' && WRITES.has(operation)
    return new StoreUnavailableError(operation, error, { ...failure, mayHaveLanded })
  }
  // One promise, settled by the call or by its timer, whichever comes first.
  const timed = <T>(operation: string, call: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          failed(
            operation,
            new StoreTimeoutError(`the store did not answer within ${timeoutMs} ms`),
          ),
        )
      }, timeoutMs)
      const settle = (value: T) => {
        clearTimeout(timer)
        resolve(value)
      }
      // Rejects with what reading the error threw, if it throws: never left unsettled.
      const fail = (error: unknown) => {
        clearTimeout(timer)
        try {
          reject(failed(operation, error))
        } catch (thrown) {
          reject(thrown)
        }
      }
      try {
        Promise.resolve(call()).then(settle, fail)
      } catch (error) {
        fail(error)
      }
    })
  return (operation, call) => {
    // A store that cannot hang (in memory, SQLite on a synchronous library) gets no timer, and
    // its answer is passed on in the turn it comes. Read at each call: a store opened on first
    // use says only then.
    if (store.remote) return timed(operation, call)
    try {
      return Promise.resolve(call()).then(undefined, (error: unknown) => {
        throw failed(operation, error)
      })
    } catch (error) {
      // Rejected, never thrown, whatever reading the error throws.
      return new Promise((_, reject) => reject(failed(operation, error)))
    }
  }
}
