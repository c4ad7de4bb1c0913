import type { StoreFailure, StoreFailureReason } from '../../core/errors'
import { classifyChain, errnoFailure } from './failures'

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
const CONNECTION_ERRORS: Record<string, StoreFailureReason> = {
  ClientClosedError: 'unreachable',
  ClientOfflineError: 'unreachable',
  ConnectionTimeoutError: 'timeout',
  SocketClosedUnexpectedlyError: 'unreachable',
  SocketTimeoutError: 'timeout',
  ReconnectStrategyError: 'unreachable',
  DisconnectsClientError: 'unreachable',
  TimeoutError: 'timeout',
  SocketTimeoutDuringMaintenanceError: 'timeout',
  CommandTimeoutDuringMaintenanceError: 'timeout',
  // A cluster none of whose nodes named could be asked for its map.
  RootNodesUnavailableError: 'unreachable',
}

// Error replies that say the server cannot serve now (loading, a replica, out of memory,
// unable to persist, credentials or permissions refused, a failover in progress, a cluster down
// or reshaping), and why. Any other reply (ERR from a script, WRONGTYPE, a syntax error) means
// a bug of ours.
const FAILURE_REPLIES: Record<string, StoreFailureReason> = {
  READONLY: 'read-only',
  LOADING: 'unreachable',
  MASTERDOWN: 'unreachable',
  OOM: 'unknown',
  MISCONF: 'read-only',
  NOAUTH: 'auth-failed',
  WRONGPASS: 'auth-failed',
  NOPERM: 'auth-failed',
  BUSY: 'busy',
  NOREPLICAS: 'unknown',
  CLUSTERDOWN: 'unreachable',
  TRYAGAIN: 'busy',
  // A cluster's slot still moving after node-redis followed as many redirections as it does.
  MOVED: 'unreachable',
  ASK: 'unreachable',
}

/**
 * The Redis drivers' classifier (one Redis or a cluster): node-redis's connection, socket,
 * offline and timeout errors, a Node socket error (`ECONNRESET`, ...), and the server's replies
 * that say it cannot serve now (`READONLY`, `LOADING`, `OOM`, `NOAUTH`, `WRONGPASS`,
 * `ERR max number of clients reached`, ...), each with its reason. JavaScript's own errors and
 * any other reply (a script's `ERR`, `WRONGTYPE`) are bugs: undefined.
 *
 * @example
 * ```ts
 * classifyRedisFailure(new Error("READONLY You can't write against a read only replica."))
 * // { reason: 'read-only', code: 'READONLY' }
 * ```
 */
export function classifyRedisFailure(error: unknown): StoreFailure | undefined {
  return classifyChain(error, (candidate) => {
    const name = [candidate.constructor.name, candidate.name].find((each) =>
      Object.hasOwn(CONNECTION_ERRORS, each),
    )
    if (name) return { reason: CONNECTION_ERRORS[name] as StoreFailureReason, code: name }
    // An error reply's message starts with its code, as the server sent it.
    const reply = /^([A-Z]+)(?: |$)/.exec(candidate.message)?.[1]
    if (reply === 'ERR' && /^ERR max number of clients/.test(candidate.message))
      return { reason: 'too-many-connections' }
    const replied =
      reply && Object.hasOwn(FAILURE_REPLIES, reply) ? FAILURE_REPLIES[reply] : undefined
    if (replied) return { reason: replied, code: reply }
    // Ours: a connection that said why it is not there (its cause tells more), a write not
    // replicated in time.
    if (candidate instanceof RedisUnavailable) return { reason: 'unknown' }
    return errnoFailure(candidate)
  })
}

/** Whether an error is node-redis's or Node's for a connection that is not there (no reply). */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  if (Object.hasOwn(CONNECTION_ERRORS, error.constructor.name)) return true
  const { code } = error as { code?: unknown }
  return typeof code === 'string' && /^E[A-Z]+(_[A-Z]+)?$/.test(code) && !code.startsWith('ERR')
}
