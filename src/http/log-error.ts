import { StoreUnavailableError } from '../core/errors'

/**
 * The default `onError`: a bug with its stack; the store failing (a 503) as one line saying why,
 * so an app whose database is down says so without a stack per request.
 */
export function logError(error: unknown): void {
  if (StoreUnavailableError.is(error)) {
    const code = error.storeCode ? ` [${error.storeCode}]` : ''
    console.warn(`[movie-log] ${error.message}${code}`)
  } else console.error('[movie-log]', error)
}
