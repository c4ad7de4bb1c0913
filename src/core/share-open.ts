/** A share link's token to the diary it opens, for the HTTP layer and the page's handler. */
import { SOLE_OWNER } from './driver'
import type { MovieLog, MovieLogs } from './movie-log'
import { recordsOf, storeRecordsOf } from './records'
import { sha256Hex } from './sha256'
import { lookupKey, readLink, SHARE_TOKEN, type ShareLink } from './share'

/** A diary reached by its share link: its log (read it only) and the link's choices. */
export interface SharedDiary {
  log: MovieLog
  link: ShareLink
}

/**
 * The diary a share token opens, from the log or logs a handler serves, or `undefined` for a
 * token that is not a live link (unknown, revoked, its owner dropped): the same answer for all.
 *
 * @example
 * ```ts
 * const shared = await openShare(logs, token)
 * if (shared) await shared.log.listMovies({ limit: 20 })
 * ```
 */
export async function openShare(
  source: MovieLog | MovieLogs,
  token: string,
): Promise<SharedDiary | undefined> {
  if (!SHARE_TOKEN.test(token)) return undefined
  const owner = await storeRecordsOf(source).read(lookupKey(token))
  if (owner === undefined) return undefined
  // Many logs open a person's diary, never the store's own; one log, only its own.
  const many = typeof (source as Partial<MovieLogs>).of === 'function'
  if (many === (owner === SOLE_OWNER)) return undefined
  const log = many ? (source as MovieLogs).of(owner) : (source as MovieLog)
  const link = await readLink(recordsOf(log))
  // The owner's record names the live token: a lookup left by a race or a drop finds no link.
  if (!link || sha256Hex(link.token) !== sha256Hex(token)) return undefined
  return { log, link }
}
