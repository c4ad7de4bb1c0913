/**
 * The server's settings, read from environment variables:
 *
 *   PORT             port to listen on                      default 3000
 *   HOST             address to bind                        default 127.0.0.1
 *   MOVIE_LOG_STORE  memory:// | sqlite://PATH | redis://… | rediss://… | redis+cluster://H:P,H:P | postgres://…
 *                                                           default sqlite://./data/movies.sqlite
 *   MOVIE_LOG_TOKEN  writes need `Authorization: Bearer <token>`       default: open
 *   MOVIE_LOG_PRIVATE=1           reading needs the token too (a flag: 1, true, yes, on or 0,
 *                                 false, no, off, any case; anything else stops the start)
 *   MOVIE_LOG_USERS  a users file (`name:<token SHA-256>` lines): a household, a diary and a
 *                    token per person; every request needs a token (./users.ts)
 *   MOVIE_LOG_CORS_ORIGINS        comma-separated origins, or *     default: no CORS
 *   MOVIE_LOG_HOSTS  comma-separated host names answered besides loopback ones (./hosts.ts)
 *                                                           default: bound to loopback, loopback
 *                                                           names only; else any
 *   MOVIE_LOG_MAX_STREAMS         exports, live feeds and streamed lists open at once  default 256
 *   MOVIE_LOG_TIME_ZONE           the IANA zone a scrobble's watch is written in
 *                                                           default: the process's own zone
 *   MOVIE_LOG_CATALOG             the IMDb catalog's SQLite file (default: beside a SQLite diary)
 *   MOVIE_LOG_WEBHOOK_PRIVATE=1   webhooks may go to loopback, private and link-local addresses
 *                                 (a flag, as MOVIE_LOG_PRIVATE)                    default: no
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { readFileSync } from 'node:fs'
import type { Catalog } from '../core/catalog'
import { checkHttpOptions, type MovieLogAction } from '../http/options'
import { hostEntryProblem } from './hosts'
import { parseUsers, type User } from './users'

export interface ServerConfig {
  port: number
  host: string
  storeUrl: string
  /** When set, adding, changing and deleting need `Authorization: Bearer <token>`. */
  token?: string
  /** With a token: reading needs it too. */
  private: boolean
  /** Browser origins allowed to call the log (CORS). */
  corsOrigins?: '*' | string[]
  /** A household: each person's diary, reached with their own token (MOVIE_LOG_USERS). */
  users?: User[]
  /** Host names answered besides loopback ones (MOVIE_LOG_HOSTS): see ./hosts.ts. */
  hosts?: string[]
  /** Exports, live feeds and streamed lists open at once; past it, 503 (MOVIE_LOG_MAX_STREAMS). */
  maxStreams?: number
  /** The IANA zone scrobbles are written in (MOVIE_LOG_TIME_ZONE); else the process's own. */
  timeZone?: string
  /** The IMDb catalog (MOVIE_LOG_CATALOG, else beside a SQLite diary), opened by the server. */
  catalog?: Catalog
  /** Webhooks may be sent to loopback, private and link-local addresses (MOVIE_LOG_WEBHOOK_PRIVATE). */
  webhookPrivate?: boolean
}

/** A configuration the server cannot start with. Its message is the one line it prints. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Reads the server's settings from environment variables, with the contract's defaults. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ConfigError(`PORT must be a port number from 1 to 65535, not '${env.PORT}'`)
  }
  const users = env.MOVIE_LOG_USERS ? readUsers(env.MOVIE_LOG_USERS) : undefined
  if (users && env.MOVIE_LOG_TOKEN) {
    throw new ConfigError(
      'MOVIE_LOG_TOKEN and MOVIE_LOG_USERS are both set: with a users file each person has a token of their own; unset MOVIE_LOG_TOKEN',
    )
  }
  const readsPrivate = flagOf(env, 'MOVIE_LOG_PRIVATE')
  if (readsPrivate && !env.MOVIE_LOG_TOKEN && !users) {
    throw new ConfigError(
      `MOVIE_LOG_PRIVATE=${env.MOVIE_LOG_PRIVATE?.trim()} needs MOVIE_LOG_TOKEN: without a token no one could read`,
    )
  }
  const maxStreams = Number(env.MOVIE_LOG_MAX_STREAMS || 256)
  if (!Number.isSafeInteger(maxStreams) || maxStreams < 1) {
    throw new ConfigError(
      `MOVIE_LOG_MAX_STREAMS must be a whole number of streams, 1 or more, not '${env.MOVIE_LOG_MAX_STREAMS}'`,
    )
  }
  const timeZone = env.MOVIE_LOG_TIME_ZONE?.trim() || undefined
  try {
    checkHttpOptions({ timeZone })
  } catch (error) {
    throw new ConfigError(
      `MOVIE_LOG_TIME_ZONE: ${(error as Error).message.replace(/^.*?timeZone: /, '')}`,
    )
  }
  const hosts = listOf(env.MOVIE_LOG_HOSTS)
  for (const entry of hosts ?? []) {
    const problem = hostEntryProblem(entry)
    if (problem) throw new ConfigError(`MOVIE_LOG_HOSTS: '${entry}' ${problem}`)
  }
  const origins = env.MOVIE_LOG_CORS_ORIGINS?.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
  return {
    port,
    // An IPv6 address may be written as in a URL ([::1]): listhen binds the bare one.
    host: env.HOST?.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    storeUrl: env.MOVIE_LOG_STORE || 'sqlite://./data/movies.sqlite',
    token: env.MOVIE_LOG_TOKEN || undefined,
    private: readsPrivate,
    corsOrigins: origins?.includes('*') ? '*' : origins?.length ? origins : undefined,
    ...(users && { users }),
    ...(hosts && { hosts }),
    maxStreams,
    ...(timeZone && { timeZone }),
    webhookPrivate: flagOf(env, 'MOVIE_LOG_WEBHOOK_PRIVATE'),
  }
}

const FLAG_VALUES = new Map([
  ...['1', 'true', 'yes', 'on'].map((word) => [word, true] as const),
  ...['0', 'false', 'no', 'off', ''].map((word) => [word, false] as const),
])

/**
 * A yes-or-no setting, read as every one is: unset or empty is no; the usual spellings of yes
 * and no in any case, around spaces; anything else stops the start rather than be read as no
 * (`MOVIE_LOG_PRIVATE=true` left the diary readable by anyone).
 */
export function flagOf(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name]
  const flag = FLAG_VALUES.get(value?.trim().toLowerCase() ?? '')
  if (flag === undefined) {
    throw new ConfigError(
      `${name} must be 1 (or true, yes, on) or 0 (or false, no, off), not '${value}'`,
    )
  }
  return flag
}

/** The items of a comma-separated setting, or undefined when it names none. */
function listOf(setting: string | undefined): string[] | undefined {
  const items = setting
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean)
  return items?.length ? items : undefined
}

/** The people of the users file at `file`; a file that is missing, unreadable or empty stops the start. */
function readUsers(file: string): User[] {
  let users: User[]
  try {
    users = parseUsers(readFileSync(file, 'utf8'))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code ? `cannot be read (${code})` : (error as Error).message
    throw new ConfigError(`MOVIE_LOG_USERS: ${file} ${why}`)
  }
  if (users.length === 0) {
    throw new ConfigError(
      `MOVIE_LOG_USERS: ${file} names no one: add a person with movie-log user add NAME`,
    )
  }
  return users
}

/** `authorize` for the server: a bearer token for every write, and for reads when private. */
export function bearerTokenAuthorizer(
  token: string,
  readsNeedToken: boolean,
): (request: Request, action: MovieLogAction) => boolean {
  // Digests of equal length, compared in constant time: the comparison leaks nothing of the token.
  const expected = createHash('sha256').update(token).digest()
  return (request, action) => {
    const isRead = action === 'list' || action === 'read'
    if (isRead && !readsNeedToken) return true
    const sent = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''
    return timingSafeEqual(createHash('sha256').update(sent).digest(), expected)
  }
}
