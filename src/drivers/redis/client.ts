import type { RedisCluster } from './cluster'
import type { RedisClient } from './connect'

// node-redis documents `getSlotMaster` and `slots` on clusters only.
export const isCluster = (client: object): client is RedisCluster =>
  typeof (client as { getSlotMaster?: unknown }).getSlotMaster === 'function' &&
  typeof (client as { duplicate?: unknown }).duplicate === 'function'

/**
 * The node-redis client of a `KeyvRedis`, read through the `client` property @keyv/redis
 * documents (its README: "API", "Clustering" and "Using Custom Redis Client Events"): one
 * Redis, or a cluster (node-redis documents `getSlotMaster` on clusters only); `undefined` for
 * anything else, a sentinel among them (`acquire`, documented on sentinels only).
 */
export function redisClientOf(store: unknown): RedisClient | RedisCluster | undefined {
  const client = (store as { client?: unknown } | null | undefined)?.client as
    | Record<string, unknown>
    | undefined
  if (!client || typeof client !== 'object') return undefined
  const commands = ['connect', 'get', 'mGet', 'del', 'info', 'eval', 'evalSha', 'close']
  if (!commands.every((name) => typeof client[name] === 'function')) return undefined
  if (typeof client.acquire === 'function') return undefined
  return client as unknown as RedisClient | RedisCluster
}
