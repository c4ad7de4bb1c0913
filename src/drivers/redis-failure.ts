import { isProgrammingError } from '../core/driver'

/** A Redis store could not be used: why, in the words of the error that said so first. */
export class RedisUnavailable extends Error {}

/** A write that fewer replicas than asked acknowledged in time (`WAIT`): a store failure. */
export class NotReplicated extends RedisUnavailable {
  constructor(acknowledged: number, replicas: number, timeoutMs: number) {
    super(
      `The write was not acknowledged: ${acknowledged} of the ${replicas} replica(s) it waits for had it within ${timeoutMs} ms (WAIT), and a failover could lose it`,
    )
  }
}

// node-redis's errors for a connection that is not there or did not answer in time. node-redis
// sets no `name` on them: their classes say which (exported by @redis/client, see its errors).
const CONNECTION_ERRORS = new Set([
  'ClientClosedError',
  'ClientOfflineError',
  'ConnectionTimeoutError',
  'SocketClosedUnexpectedlyError',
  'SocketTimeoutError',
  'ReconnectStrategyError',
  'DisconnectsClientError',
  'TimeoutError',
  'SocketTimeoutDuringMaintenanceError',
  'CommandTimeoutDuringMaintenanceError',
  // A cluster none of whose nodes named could be asked for its map.
  'RootNodesUnavailableError',
])

// Error replies that say the server cannot serve now (loading, a replica, out of memory,
// unable to persist, credentials or permissions refused, a failover in progress, a cluster down
// or reshaping). Any other
// reply (ERR from a script, WRONGTYPE, a syntax error) means a bug of ours.
const FAILURE_REPLIES = new Set([
  'READONLY',
  'LOADING',
  'MASTERDOWN',
  'OOM',
  'MISCONF',
  'NOAUTH',
  'WRONGPASS',
  'NOPERM',
  'BUSY',
  'NOREPLICAS',
  'CLUSTERDOWN',
  'TRYAGAIN',
  // A cluster's slot still moving after node-redis followed as many redirections as it does.
  'MOVED',
  'ASK',
])

/**
 * Whether an error a Redis call raised is the store failing rather than a bug: node-redis's
 * connection, socket, offline and timeout errors, a Node socket error (`ECONNRESET`, ...), and
 * the server's replies that say it cannot serve now (`READONLY`, `LOADING`, `OOM`, `NOAUTH`,
 * `WRONGPASS`, `ERR max number of clients reached`, ...). JavaScript's own errors never are.
 */
export function isRedisStoreFailure(error: unknown): boolean {
  if (!(error instanceof Error) || isProgrammingError(error)) return false
  if (error instanceof RedisUnavailable || error.name === 'StoreTimeoutError') return true
  if (isConnectionFailure(error)) return true
  // An error reply's message starts with its code, as the server sent it.
  const reply = /^([A-Z]+)(?: |$)/.exec(error.message)?.[1]
  if (reply === 'ERR') return /^ERR max number of clients/.test(error.message)
  return reply !== undefined && FAILURE_REPLIES.has(reply)
}

/** Whether an error is node-redis's or Node's for a connection that is not there (no reply). */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  if (CONNECTION_ERRORS.has(error.constructor.name)) return true
  const { code } = error as { code?: unknown }
  return typeof code === 'string' && /^E[A-Z]+(_[A-Z]+)?$/.test(code) && !code.startsWith('ERR')
}
