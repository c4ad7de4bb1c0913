import type Keyv from 'keyv'
import { createMemoryDriver, memoryMap } from './memory'
import { createRedisDriver, isRedisAdapter } from './redis'
import { createScanDriver } from './scan'
import { createSqlDriver } from './sql'
import { isSqlAdapter } from './sql-adapter'
import type { MovieDriver } from './types'

/**
 * The driver for a store, chosen once: memory for a Map (keyv 5 or 6), Redis and SQL for the
 * keyv adapters whose native commands they use, and the scan driver for any other keyv store.
 */
export function createDriver(keyv: Keyv): MovieDriver {
  const { store } = keyv
  const map = memoryMap(keyv)
  if (map) return createMemoryDriver(keyv, map)
  // keyv 5 leaves the key prefix to @keyv/redis; a Keyv that prefixes too is left to the scan.
  if (isRedisAdapter(store) && keyv.useKeyPrefix === false) return createRedisDriver(keyv, store)
  if (isSqlAdapter(store)) return createSqlDriver(keyv, store)
  return createScanDriver(keyv)
}

export { type KeyvLike, type MovieLogStore, toKeyv } from './keyv'
export type { MovieDriver } from './types'
