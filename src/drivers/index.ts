import type Keyv from 'keyv'
import type { StoreDriver } from '../core/driver'
import type { StoreAdapter } from '../core/store-adapter'
import { createMemoryDriver, memoryMap } from './memory/driver'
import { redisClientOf } from './redis/client'
import { createScanDriver, SCAN_LIMITS } from './scan/driver'
import { storeOf } from './shared/keyv'
import { loadDriver } from './shared/load'
import { classifyRedisFailure } from './shared/redis-failures'

// Stores already told what the scan lacks: it is said once per store, not per log.
const warned = new WeakSet<object>()

/**
 * The store for a Keyv, chosen once: the Redis driver for a KeyvRedis on one Redis or a Redis
 * Cluster (through its documented `client`), as a store to open, since that driver is
 * movie-log/redis and loaded then; else `driverForKeyv`'s.
 * `storeTimeoutMs`: the log's bound on a call, which a Redis write's wait for replicas keeps to.
 */
export function storeForKeyv(
  keyv: Keyv,
  warn: (message: string) => void = emitWarning,
  storeTimeoutMs?: number,
): StoreDriver | StoreAdapter {
  const client = redisClientOf(storeOf(keyv))
  if (!client) return driverForKeyv(keyv, warn)
  const options = {
    namespace: keyv.namespace ?? 'movie-log',
    connectTimeoutMs: 2000,
    ...(storeTimeoutMs === undefined ? {} : { storeTimeoutMs }),
  }
  return {
    kind: 'redis',
    remote: true,
    open: async () => (await loadDriver('redis'))(client).open(options),
    classifyFailure: classifyRedisFailure,
  }
}

/**
 * The driver for a Keyv that is not on Redis: memory for a Map (keyv 5 or 6); the scan for any
 * other keyv store, which says once, through `warn`, which guarantees it lacks.
 */
export function driverForKeyv(
  keyv: Keyv,
  warn: (message: string) => void = emitWarning,
): StoreDriver {
  const map = memoryMap(keyv)
  if (map) return createMemoryDriver(keyv, map)
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
  // A process warning where there is a process (Node, Bun, Deno), else the console.
  const { process } = globalThis as { process?: { emitWarning?: NodeJS.Process['emitWarning'] } }
  if (process?.emitWarning) process.emitWarning(message, { code: 'MOVIE_LOG_SCAN_DRIVER' })
  else console.warn(message)
}

export { type KeyvLike, type MovieLogStore, toKeyv } from './shared/keyv'
