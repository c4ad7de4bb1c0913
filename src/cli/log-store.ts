/** A log on a store URL, opened as the server opens it. */
import { checkOwner } from '../core/owner'
import { InvalidOwnerError, type MovieLogs, type ShareableMovieLog } from '../index'
import { openCheckedLog, openCheckedLogs, StoreOpenError } from '../server'
import { UsageError } from './exit'

/** The store URL a command uses: `--store`, else MOVIE_LOG_STORE, else the server's default. */
export const storeUrl = (given: string | undefined): string =>
  given || process.env.MOVIE_LOG_STORE || 'sqlite://./data/movies.sqlite'

/**
 * The store URL a bulk writer (`movie-log import`) opens: on SQLite its commits are not synced
 * one by one (`synchronous=normal`, unless the URL says), so none holds the file's write lock
 * through a sync while a server on the file waits for it; closing the store syncs the files,
 * and the command reports after that. A power cut during the import loses its last commits,
 * which the same import run again adds (its rows keep their ids).
 */
export function bulkStoreUrl(url: string): string {
  if (!/^sqlite:\/\//i.test(url) || /[?&]synchronous=/.test(url)) return url
  return `${url}${url.includes('?') ? '&' : '?'}synchronous=normal`
}

/** An open log and how to close its store. */
export interface OpenLog {
  log: ShareableMovieLog
  close(): Promise<void>
}

/**
 * Opens the log at `url`, checking that the store answers: the one diary, or with `owner`
 * (`--owner`) that owner's diary among many (`createMovieLogs`). A malformed URL or owner is a
 * usage error, a store that cannot be reached an error whose message is the server's one line.
 */
export async function openLog(url: string, owner?: string): Promise<OpenLog> {
  try {
    if (owner === undefined) {
      const log = await openCheckedLog(url)
      return { log, close: () => log.close() }
    }
    // A name no store could keep is refused before the store is opened.
    checkOwner(owner)
    const logs = await openCheckedLogs(url)
    return { log: logs.of(owner), close: () => logs.close() }
  } catch (error) {
    if (error instanceof StoreOpenError && error.badUrl) throw new UsageError(error.message)
    if (InvalidOwnerError.is(error)) throw new UsageError(`--owner: ${error.message}`)
    throw error
  }
}

/** Every owner's log on the store at `url` (`createMovieLogs`), checked as `openLog` checks it. */
export async function openLogs(url: string): Promise<MovieLogs> {
  try {
    return await openCheckedLogs(url)
  } catch (error) {
    if (error instanceof StoreOpenError && error.badUrl) throw new UsageError(error.message)
    throw error
  }
}
