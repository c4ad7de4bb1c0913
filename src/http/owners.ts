/** Which log a request reaches, and whose it is: the one log, or one owner's of many. */
import type { MovieLog, MovieLogs } from '../core/movie-log'
import type { MovieLogHttpOptions } from './options'

/** The log a request reached, and its owner's name (none for a handler of one log). */
export interface Reached {
  log: MovieLog
  owner?: string
}

/**
 * The log a request reaches: the one log, or with many (`createMovieLogs`), the log of the
 * owner the host's `owner` function names; `undefined` when it names none (a 401).
 */
export function ownerLogs(
  source: MovieLog | MovieLogs,
  owner: MovieLogHttpOptions['owner'],
): (request: Request) => Reached | Promise<Reached | undefined> {
  const many = typeof (source as Partial<MovieLogs>).of === 'function'
  if (many !== (owner !== undefined)) {
    throw new TypeError(
      many
        ? 'movie-log: many logs (createMovieLogs) need options.owner, a function of the request that names its owner'
        : 'movie-log: options.owner is for many logs: pass createMovieLogs(store), not one log',
    )
  }
  // The one log at once: no turn of waiting for it on every request.
  if (!many) {
    const one: Reached = { log: source as MovieLog }
    return () => one
  }
  const logs = source as MovieLogs
  const named = owner as NonNullable<MovieLogHttpOptions['owner']>
  return async (request) => {
    const name = await named(request)
    return name === undefined ? undefined : { log: logs.of(name), owner: name }
  }
}
