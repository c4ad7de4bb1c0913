import { createHash } from 'node:crypto'
import type { StoreDriver } from '../core/driver'
import { UnsupportedStoreError } from '../core/errors'
import type { Movie } from '../core/movie'
import { redact } from '../core/store-url'
import { createOwnerCaches } from './counted-cache'
import { createMovieCache } from './movie-cache'
import { checkRedisServer, openRedisClient, type RedisClient } from './redis-connect'
import { isRedisStoreFailure } from './redis-failure'
import { checkNamespace, redisLogKeys, redisOwnersKey } from './redis-keys'
import { type RedisShared, redisLog } from './redis-log'
import { DROP_BATCH } from './redis-scripts'

/** What a Redis driver is opened with. */
export interface RedisDriverOptions {
  /** Every key starts with `{<namespace>:`; it may not hold `{` or `}`. */
  namespace: string
  /** How long opening waits for Redis, and each reconnect attempt may take, in ms. */
  connectTimeoutMs: number
}

// Names deleted per script while dropping an owner: small enough not to stall Redis.
const DROP_BATCH_SIZE = 500
// Owners read from the owners set per call while listing them.
const OWNERS_BATCH_SIZE = 500

/**
 * The Redis driver on a redis:// or rediss:// URL (user, password, database number, TLS), on a
 * client of its own that fails fast and reconnects. Refuses a database that is not a number
 * and a Redis older than 6.2; a Redis that cannot be reached yet is no error: calls fail
 * until it can, naming why (refused, unknown host, wrong password), password hidden.
 *
 * @example
 * ```ts
 * const driver = await openRedisDriver('redis://:secret@cache:6379/2', {
 *   namespace: 'movie-log',
 *   connectTimeoutMs: 2000,
 * })
 * ```
 */
export async function openRedisDriver(
  url: string,
  options: RedisDriverOptions,
): Promise<StoreDriver> {
  checkNamespace(options.namespace)
  const { client, unavailable } = await openRedisClient(url, options.connectTimeoutMs)
  const label = `The Redis at ${redact(url)}`
  const driver = createRedisDriver(client, options, { owned: true, unavailable, label })
  if (client.isReady) {
    // A Redis too old is refused now; one that fails this first call is left to later calls.
    await driver.checked().catch(async (error: unknown) => {
      if (!(error instanceof UnsupportedStoreError)) return
      await driver.close()
      throw error
    })
  }
  return driver
}

/**
 * The Redis driver on a node-redis client the caller made (a `KeyvRedis`'s, see
 * `redisClientOf`). Connects it if it is not open; `close()` leaves it open. Its settings are
 * its own: made without `disableOfflineQueue`, its calls wait while Redis is away, bounded
 * by the log's store timeout.
 *
 * @example
 * ```ts
 * const client = redisClientOf(keyvRedis)
 * const driver = client ? redisDriverOver(client, { namespace: 'movie-log', connectTimeoutMs: 2000 }) : undefined
 * ```
 */
export function redisDriverOver(client: RedisClient, options: RedisDriverOptions): StoreDriver {
  checkNamespace(options.namespace)
  const label = 'The Redis given'
  return createRedisDriver(client, options, { owned: false, unavailable: (error) => error, label })
}

/**
 * The node-redis client of a `KeyvRedis`, read through the `client` property @keyv/redis
 * documents (its README: "API" and "Using Custom Redis Client Events"), when it is one Redis:
 * `undefined` for anything else, a cluster (node-redis documents `getSlotMaster` on clusters
 * only) or a sentinel (`acquire`, documented on sentinels only).
 */
export function redisClientOf(store: unknown): RedisClient | undefined {
  const client = (store as { client?: unknown } | null | undefined)?.client as
    | Record<string, unknown>
    | undefined
  if (!client || typeof client !== 'object') return undefined
  const commands = ['connect', 'get', 'mGet', 'del', 'info', 'eval', 'evalSha', 'close']
  if (!commands.every((name) => typeof client[name] === 'function')) return undefined
  if (typeof client.getSlotMaster === 'function' || typeof client.acquire === 'function')
    return undefined
  return client as unknown as RedisClient
}

function createRedisDriver(
  client: RedisClient,
  options: RedisDriverOptions,
  how: { owned: boolean; unavailable: (error: unknown) => unknown; label: string },
): StoreDriver & { checked(): Promise<void> } {
  const { namespace } = options
  // The server's version, checked once per connection (a Redis may come back older).
  let supported = false
  let checking: Promise<void> | undefined
  const checked = () =>
    (checking ??= (async () => {
      if (!client.isOpen && !how.owned) await client.connect().catch(() => {})
      checkRedisServer(await client.info('server'), how.label)
      supported = true
    })().catch((error: unknown) => {
      // Refused for good when unsupported; a failure to ask is asked again by the next call.
      if (!(error instanceof UnsupportedStoreError)) checking = undefined
      throw error
    }))
  if (how.owned) {
    client.on('ready', () => {
      supported = false
      checking = undefined
    })
  }

  const call = async <T>(work: (client: RedisClient) => Promise<T>): Promise<T> => {
    try {
      if (!supported) await checked()
      return await work(client)
    } catch (error) {
      throw how.unavailable(error)
    }
  }
  const run = (script: string, keys: string[], args: string[]) =>
    call(async (redis) => {
      const sha = shaOf(script)
      try {
        return await redis.evalSha(sha, { keys, arguments: args })
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error
        return redis.eval(script, { keys, arguments: args })
      }
    })
  const shared: RedisShared = {
    namespace,
    call,
    run,
    caches: createOwnerCaches<Movie>(),
    texts: createMovieCache(),
  }

  return {
    kind: 'redis',
    remote: true,
    atomic: true,
    log: (owner) => redisLog(shared, owner),
    // Costs the owner's keys: its movies are named by its ids set, its records by its set of
    // live records (a SCAN would walk every key of the store, and on a cluster every node).
    drop: async (owner) => {
      const keys = redisLogKeys(namespace, owner)
      for (const [names, prefix] of [
        [keys.ids, keys.movie],
        [keys.records, keys.record],
      ] as const) {
        while (
          (await run(DROP_BATCH, [names], [prefix, String(DROP_BATCH_SIZE)])) === DROP_BATCH_SIZE
        );
      }
      await call((redis) => redis.del([keys.ids, keys.dates, keys.changes, keys.records]))
      // Last, once the movies are gone: a drop that fails before leaves the owner listed.
      await call((redis) => redis.zRem(redisOwnersKey(namespace), owner))
    },
    // The owners set, checked against each owner's ids: an owner whose movies were all deleted
    // (or whose drop stopped short of its ZREM) stays in the set, and is not listed. It is not
    // taken out here: an add may be between its ZADD and its first movie.
    owners: async (after, limit = Number.POSITIVE_INFINITY) => {
      const owners: string[] = []
      let start = after === undefined ? '-' : `(${after}`
      while (owners.length < limit) {
        const count = Math.min(limit - owners.length, OWNERS_BATCH_SIZE)
        const members = await call((redis) =>
          redis.zRange(redisOwnersKey(namespace), start, '+', {
            BY: 'LEX',
            LIMIT: { offset: 0, count },
          }),
        )
        const held = await Promise.all(
          members.map((owner) => call((redis) => redis.exists(redisLogKeys(namespace, owner).ids))),
        )
        owners.push(...members.filter((_, at) => held[at] === 1))
        if (members.length < count) break
        start = `(${members.at(-1)}`
      }
      return owners
    },
    // TEMPORARY (issue 29): until the Redis change history lands (branch live-drivers).
    onChange: () => {
      throw new UnsupportedStoreError('live changes are not available on redis yet')
    },
    isStoreFailure: isRedisStoreFailure,
    close: async () => {
      if (!how.owned) return
      if (client.isReady) await client.close()
      else client.destroy()
    },
    checked,
  }
}

const shas = new Map<string, string>()
function shaOf(script: string): string {
  let sha = shas.get(script)
  if (sha === undefined) {
    sha = createHash('sha1').update(script).digest('hex')
    shas.set(script, sha)
  }
  return sha
}
