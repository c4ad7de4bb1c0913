import type { MovieDriver } from '../drivers/types'
import { StoreUnavailableError } from './store-errors'
import { StoreTimeoutError } from './store-failure'

/**
 * The driver as the core calls it: every call that fails, or hangs past `timeoutMs`, raises
 * `StoreUnavailableError` with the store's error as its cause. A driver that cannot hang (in
 * memory) gets no timer.
 */
export function guardDriver(driver: MovieDriver, timeoutMs: number): MovieDriver {
  const guard = driver.remote ? withTimeout(timeoutMs) : plain
  return {
    remote: driver.remote,
    put: (movie) => guard('set', () => driver.put(movie)),
    get: (id) => guard('get', () => driver.get(id)),
    listAfter: (after, limit) => guard('list', () => driver.listAfter(after, limit)),
    listByDate: (query, limit) => guard('list', () => driver.listByDate(query, limit)),
    listAddedInRange: (after, range, limit) =>
      guard('list', () => driver.listAddedInRange(after, range, limit)),
    replace: (expected, next) => guard('replace', () => driver.replace(expected, next)),
    remove: (expected) => guard('delete', () => driver.remove(expected)),
    create: (key, value, ttlMs) => guard('claim', () => driver.create(key, value, ttlMs)),
    read: (key) => guard('claim', () => driver.read(key)),
    write: (key, value, ttlMs) => guard('claim', () => driver.write(key, value, ttlMs)),
  }
}

type Guard = <T>(operation: string, call: () => Promise<T>) => Promise<T>

const plain: Guard = async (operation, call) => {
  try {
    return await call()
  } catch (error) {
    throw new StoreUnavailableError(operation, error)
  }
}

function withTimeout(timeoutMs: number): Guard {
  return async (operation, call) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new StoreTimeoutError(`the store did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      )
    })
    try {
      return await Promise.race([call(), timeout])
    } catch (error) {
      throw new StoreUnavailableError(operation, error)
    } finally {
      clearTimeout(timer)
    }
  }
}
