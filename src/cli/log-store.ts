/** A log on a store URL, opened as the example server opens it. */

import { explainStoreFailure } from '../../examples/start-errors'
import { checkStore, openStore, StoreUrlError } from '../../examples/store'
import { createMovieLog, type MovieLog } from '../index'
import { UsageError } from './exit'

/** The store URL a command uses: `--store`, else MOVIE_LOG_STORE, else the server's default. */
export const storeUrl = (given: string | undefined): string =>
  given || process.env.MOVIE_LOG_STORE || 'sqlite://./data/movies.sqlite'

/** An open log and how to close its store. */
export interface OpenLog {
  log: MovieLog
  close(): Promise<void>
}

/** Opens the log at `url`, checking that the store answers; a malformed URL is a usage error. */
export async function openLog(url: string): Promise<OpenLog> {
  let keyv: Awaited<ReturnType<typeof openStore>>
  try {
    keyv = await openStore(url)
  } catch (error) {
    if (error instanceof StoreUrlError) {
      throw new UsageError(error.message.replace(/^MOVIE_LOG_STORE: /, 'store URL: '))
    }
    throw error
  }
  const close = async () => {
    await keyv.disconnect().catch(() => {})
  }
  try {
    await checkStore(keyv)
  } catch (error) {
    await close()
    // The server's one line (cause, store code, no password), kept with what it explains.
    throw new Error(explainStoreFailure(url, error), { cause: error })
  }
  return { log: createMovieLog(keyv), close }
}
