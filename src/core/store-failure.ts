/**
 * Why a store failed, read from the error its client raised: the store's own code (a Node
 * errno, a PostgreSQL SQLSTATE, a SQLite result code, a Redis reply prefix) sorted into a few
 * reasons an operator can act on.
 */

/**
 * Why the store failed, as far as its error tells:
 * - `'unreachable'`: refused, reset, unknown host, or the server ended the connection
 *   (a restart, a failover, an idle-connection reaper);
 * - `'timeout'`: no answer in time (connecting, or the call itself past `storeTimeoutMs`);
 * - `'too-many-connections'`: the store refuses new connections (PostgreSQL's connection
 *   limits, Redis's `maxclients`);
 * - `'disk-full'`: the store's disk (or quota) is full;
 * - `'read-only'`: the store refuses writes (a read-only file or replica, Redis unable to
 *   persist);
 * - `'auth-failed'`: the store refused the credentials;
 * - `'busy'`: locked by another writer past the wait allowed, or a deadlock;
 * - `'unknown'`: none of these.
 *
 * @example
 * ```ts
 * if (StoreUnavailableError.is(error) && error.reason === 'disk-full') alertOperator()
 * ```
 */
export type StoreFailureReason =
  | 'unreachable'
  | 'timeout'
  | 'too-many-connections'
  | 'disk-full'
  | 'read-only'
  | 'auth-failed'
  | 'busy'
  | 'unknown'

/** A few words per reason, for messages and logs. */
export const STORE_FAILURE_WORDS: Record<StoreFailureReason, string> = {
  unreachable: 'cannot be reached',
  timeout: 'no answer in time',
  'too-many-connections': 'too many connections',
  'disk-full': 'disk full',
  'read-only': 'read-only, refuses writes',
  'auth-failed': 'credentials refused',
  busy: 'busy, locked by another writer',
  unknown: 'failed',
}

/** Raised by movie-log itself when a store call outlives its timeout: the store said nothing. */
export class StoreTimeoutError extends Error {
  override name = 'StoreTimeoutError'
}

const BY_CODE: Record<string, StoreFailureReason> = {}
function codes(reason: StoreFailureReason, list: string): void {
  for (const code of list.split(' ')) BY_CODE[code] = reason
}
// Node errnos; PostgreSQL SQLSTATEs (class 08 connection, 57P0x shutdown, 53xxx resources,
// 28xxx authorisation); SQLite result codes; Redis reply prefixes.
codes(
  'unreachable',
  'ECONNREFUSED ECONNRESET ECONNABORTED EPIPE ENOTFOUND EAI_AGAIN EHOSTUNREACH EHOSTDOWN ' +
    'ENETUNREACH ENETDOWN SQLITE_CANTOPEN 08000 08001 08003 08004 08006 57P01 57P02 57P03 LOADING',
)
codes('timeout', 'ETIMEDOUT 57014')
codes('too-many-connections', '53300')
codes('disk-full', 'ENOSPC EDQUOT 53100 SQLITE_FULL')
codes('read-only', 'EROFS 25006 SQLITE_READONLY READONLY MISCONF')
codes('auth-failed', '28000 28P01 WRONGPASS NOAUTH')
codes('busy', '40001 40P01 55P03 SQLITE_BUSY SQLITE_LOCKED BUSY')

// Errors that carry no code: node-redis's classes, pg's own messages.
const BY_NAME: Record<string, StoreFailureReason> = {
  StoreTimeoutError: 'timeout',
  ConnectionTimeoutError: 'timeout',
  SocketTimeoutError: 'timeout',
  ClientClosedError: 'unreachable',
  ClientOfflineError: 'unreachable',
  SocketClosedUnexpectedlyError: 'unreachable',
  ReconnectStrategyError: 'unreachable',
}
const BY_MESSAGE: [RegExp, StoreFailureReason][] = [
  [/timeout|timed out/i, 'timeout'],
  [/max(imum)? number of clients|too many (clients|connections)/i, 'too-many-connections'],
  [/connection terminated|socket closed|client is (closed|offline)/i, 'unreachable'],
  // A SQL driver used after close(): node-sqlite3's closed database, pg's ended pool.
  [/database is closed|after calling end on the pool/i, 'unreachable'],
]
const NOT_CODES = new Set([
  'Error',
  'TypeError',
  'RangeError',
  'AggregateError',
  'StoreTimeoutError',
])

/**
 * The reason and the store's own code (`ECONNREFUSED`, `57P01`, `SQLITE_FULL`, `READONLY`, or
 * an error class name where there is no code) of a store failure. The error and its causes
 * are read outermost first; the first that says something decides.
 */
export function classifyStoreFailure(error: unknown): {
  reason: StoreFailureReason
  code: string | undefined
} {
  let firstCode: string | undefined
  for (const candidate of chain(error)) {
    const code = codeOf(candidate)
    firstCode ??= code
    const reason =
      (code && BY_CODE[code]) ??
      BY_NAME[candidate.name] ??
      BY_MESSAGE.find(([pattern]) => pattern.test(candidate.message))?.[1]
    if (reason) return { reason, code: code ?? firstCode }
  }
  return { reason: 'unknown', code: firstCode }
}

function codeOf(error: Error): string | undefined {
  const { code } = error as { code?: unknown }
  if (typeof code === 'string' && code) return code
  // A Redis error reply starts with its code: `READONLY You can't write against a replica`.
  const reply = /^([A-Z]{4,})\b/.exec(error.message)?.[1]
  if (reply && reply !== 'ERR') return reply
  // node-redis's errors have no code: their class says it. Ours is no code of the store's.
  return NOT_CODES.has(error.name) || error.name === 'error' ? undefined : error.name
}

// The error, its causes, and the errors an AggregateError gathers (a refused connect to each
// address of a host), at most a few levels deep.
function* chain(error: unknown, depth = 0): Generator<Error> {
  if (!(error instanceof Error) || depth > 4) return
  yield error
  if (error instanceof AggregateError)
    for (const inner of error.errors) yield* chain(inner, depth + 1)
  yield* chain(error.cause, depth + 1)
}
