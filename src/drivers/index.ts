import type Keyv from 'keyv'
import { addedInRange } from './in-range'
import { adapterOf } from './keyv'
import { createMemoryDriver, memoryMap } from './memory'
import { createRedisDriver, isRedisAdapter } from './redis'
import { createScanDriver } from './scan'
import { createSqlDriver } from './sql'
import { isSqlAdapter } from './sql-adapter'
import type { BaseDriver, MovieDriver } from './types'

/**
 * The driver for a store, chosen once: memory for a Map (keyv 5 or 6), Redis and SQL for the
 * keyv adapters whose native commands they use, and the scan driver for any other keyv store.
 */
export function createDriver(keyv: Keyv): MovieDriver {
  const driver = createBaseDriver(keyv)
  return { ...driver, listAddedInRange: addedInRange(driver) }
}

function createBaseDriver(keyv: Keyv): BaseDriver {
  const map = memoryMap(keyv)
  if (map) return createMemoryDriver(keyv, map)
  const adapter = adapterOf(keyv)
  // @keyv/redis prefixes its keys itself: keyv 6 leaves it to it, keyv 5 when told to
  // (useKeyPrefix: false); a Keyv that prefixes them again is left to the scan.
  if (isRedisAdapter(adapter) && keyv.useKeyPrefix !== true) return createRedisDriver(keyv, adapter)
  if (isSqlAdapter(adapter)) return createSqlDriver(keyv, adapter)
  return createScanDriver(keyv)
}

export { type KeyvLike, type MovieLogStore, toKeyv } from './keyv'
export type { MovieDriver } from './types'
