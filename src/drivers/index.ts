import type Keyv from 'keyv'
import type { StoreDriver } from '../core/driver'
import { storeOf } from './keyv'
import { createMemoryDriver, memoryMap } from './memory'
import { redisClientOf, redisDriverOver } from './redis'
import { createScanDriver, SCAN_LIMITS } from './scan'

// Stores already told what the scan lacks: it is said once per store, not per log.
const warned = new WeakSet<object>()

/**
 * The driver for a Keyv, chosen once: memory for a Map (keyv 5 or 6); the Redis driver for a
 * KeyvRedis on one Redis or a Redis Cluster (through its documented `client`); the scan for any
 * other keyv store, which says once, through `warn`, which guarantees it lacks.
 * `storeTimeoutMs`: the log's bound on a call, which a Redis write's wait for replicas keeps to.
 */
export function driverForKeyv(
  keyv: Keyv,
  warn: (message: string) => void = emitWarning,
  storeTimeoutMs?: number,
): StoreDriver {
  const map = memoryMap(keyv)
  if (map) return createMemoryDriver(keyv, map)
  // The KeyvRedis the Keyv was made over, even where keyv 6 wrapped it in its bridge.
  const client = redisClientOf(storeOf(keyv))
  if (client) {
    return redisDriverOver(client, {
      namespace: keyv.namespace ?? 'movie-log',
      connectTimeoutMs: 2000,
      ...(storeTimeoutMs === undefined ? {} : { storeTimeoutMs }),
    })
  }
  const store = (storeOf(keyv) as object | undefined) ?? keyv
  if (!warned.has(store)) {
    warned.add(store)
    warn(
      `movie-log: this keyv store gets the scan driver: ${SCAN_LIMITS}. ` +
        'For SQLite, PostgreSQL and Redis, give createMovieLog a store URL instead.',
    )
  }
  return createScanDriver(keyv)
}

function emitWarning(message: string): void {
  process.emitWarning(message, { code: 'MOVIE_LOG_SCAN_DRIVER' })
}

export { type KeyvLike, type MovieLogStore, toKeyv } from './keyv'
