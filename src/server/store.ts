/** A log on a store URL, opened and checked as the server and the command open it. */
import type { ClosableMovieLog } from '../create'
import {
  createMovieLog,
  createMovieLogs,
  type MovieLog,
  MovieLogError,
  type MovieLogOptions,
  type MovieLogs,
  StoreUnavailableError,
  UnsupportedStoreError,
} from '../index'
import { explainStoreFailure } from './start-errors'

/** A store URL that cannot be opened: its message is the one line to print. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError'
  /** True when the URL itself is wrong (malformed, unknown scheme): a usage error. */
  readonly badUrl: boolean

  constructor(message: string, options: { cause: unknown; badUrl: boolean }) {
    super(message, { cause: options.cause })
    this.badUrl = options.badUrl
  }
}

/**
 * Opens the log at `url` and reads once, so that a store that cannot be reached, or that
 * movie-log cannot use, is found before the first request. Rejects with a `StoreOpenError`
 * whose message names the cause and hides the password.
 */
export function openCheckedLog(
  url: string,
  options: MovieLogOptions = {},
): Promise<ClosableMovieLog> {
  return openChecked(
    url,
    () => createMovieLog(url, options),
    (log) => log,
  )
}

/** Opens many logs on the store at `url` (`createMovieLogs`), checked as `openCheckedLog` is. */
export function openCheckedLogs(url: string, options: MovieLogOptions = {}): Promise<MovieLogs> {
  return openChecked(
    url,
    () => createMovieLogs(url, options),
    (logs) => logs.of(CHECK),
  )
}

const CHECK = 'movie-log-store-check'

async function openChecked<Opened extends { close(): Promise<void> }>(
  url: string,
  create: () => Opened,
  logOf: (opened: Opened) => MovieLog,
): Promise<Opened> {
  let opened: Opened
  try {
    opened = create()
  } catch (error) {
    throw new StoreOpenError(messageOf(error), { cause: error, badUrl: true })
  }
  try {
    await logOf(opened).getMovie(CHECK)
    return opened
  } catch (error) {
    await opened.close().catch(() => {})
    if (StoreUnavailableError.is(error)) {
      throw new StoreOpenError(explainStoreFailure(url, error.cause ?? error), {
        cause: error,
        badUrl: false,
      })
    }
    // movie-log refused the store (a malformed URL, a version it does not know): it says why.
    if (MovieLogError.is(error)) {
      // A store's client package that is not installed: the URL is fine, the machine lacks it.
      const missing = UnsupportedStoreError.is(error) && error.missingPackage !== undefined
      throw new StoreOpenError(error.message, { cause: error, badUrl: !missing })
    }
    throw error
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
