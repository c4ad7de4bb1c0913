import type { StoreDriver } from '../../core/driver'
import { UnsupportedStoreError } from '../../core/errors'
import type { Movie } from '../../core/movie'
import type { StoreAdapter } from '../../core/store-adapter'
import { redact } from '../../core/store-url'
import { createOwnerCaches } from '../shared/counted-cache'
import { createMovieCache } from '../shared/movie-cache'
import { classifyRedisFailure } from '../shared/redis-failures'
import { createWatchers } from '../shared/watchers'
import { isCluster } from './client'
import { clusterConnection, openRedisCluster, type RedisCluster } from './cluster'
import {
  checkRedisServer,
  clientConnection,
  openRedisClient,
  type RedisClient,
  type RedisConnection,
  waitParameter,
} from './connect'
import { dropRedisLog } from './drop'
import { checkNamespace, redisChangedChannel, redisLogKeys, redisOwnersKey } from './keys'
import { type RedisShared, redisLog } from './log'
import { createRedisPuts } from './puts'
import { shaOf } from './scripts'
import { subscribeToChanges } from './subscribe'

/** What a Redis driver is opened with. */
export interface RedisDriverOptions {
  /** Every key starts with `{<namespace>:`; it may not hold `{` or `}`. */
  namespace: string
  /** How long opening waits for Redis, and each reconnect attempt may take, in ms. */
  connectTimeoutMs: number
  /** The log's bound on one store call, in ms (default 5000): a write waits for replicas half of it. */
  storeTimeoutMs?: number
  /**
   * Replicas each write waits for (`WAIT`) before it is acknowledged; fewer in time is a store
   * failure. Default: 1 on a cluster, 0 on one Redis; a URL's `?wait=N` sets it.
   */
  wait?: number
}

// Owners read from the owners set per call while listing them.
const OWNERS_BATCH_SIZE = 500

/**
 * The Redis driver on a redis:// or rediss:// URL (user, password, database number, TLS, and
 * `?wait=N` for the replicas each write waits for), on a client of its own that fails fast and
 * reconnects; or on a Redis Cluster, `redis+cluster://HOST:PORT,HOST:PORT` (`rediss+cluster://`
 * for TLS), where each write waits for 1 replica unless `?wait=N` says otherwise. Refuses a
 * database that is not a number, a Redis older than 6.2 and a cluster node named by redis://;
 * a Redis that cannot be reached yet is no error: calls fail until it can, naming why (refused,
 * unknown host, wrong password), password hidden.
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
  if (/^rediss?\+cluster:/i.test(url)) {
    const { connection, wait } = await openRedisCluster(url, options.connectTimeoutMs)
    const label = `The Redis Cluster at ${redact(url)}`
    const driver = createRedisDriver(
      connection,
      { ...options, wait: wait ?? options.wait ?? 1 },
      { label, cluster: true },
    )
    return checkedAtOpen(driver)
  }
  const { wait, url: plain } = waitParameter(url)
  const { client, unavailable } = await openRedisClient(plain, options.connectTimeoutMs)
  const label = `The Redis at ${redact(plain)}`
  const connection = clientConnection(client, { owned: true, unavailable })
  const driver = createRedisDriver(
    connection,
    { ...options, wait: wait ?? options.wait },
    { label, cluster: false },
  )
  // Asked again after each reconnect: the Redis that comes back may be another.
  client.on('ready', () => driver.unchecked())
  return client.isReady ? checkedAtOpen(driver) : driver
}

// A Redis too old is refused now; one that fails this first call is left to later calls.
async function checkedAtOpen(driver: RedisDriver): Promise<StoreDriver> {
  await driver.checked().catch(async (error: unknown) => {
    if (!(error instanceof UnsupportedStoreError)) return
    await driver.close()
    throw error
  })
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
export function redisDriverOver(
  client: RedisClient | RedisCluster,
  options: RedisDriverOptions,
): StoreDriver {
  checkNamespace(options.namespace)
  if (isCluster(client)) {
    const connection = clusterConnection(client, { owned: false, where: 'The Redis Cluster given' })
    const label = 'The Redis Cluster given'
    return createRedisDriver(connection, { wait: 1, ...options }, { label, cluster: true })
  }
  const connection = clientConnection(client, { owned: false, unavailable: (error) => error })
  return createRedisDriver(connection, options, { label: 'The Redis given', cluster: false })
}

type RedisDriver = StoreDriver & { checked(): Promise<void>; unchecked(): void }

function createRedisDriver(
  connection: RedisConnection,
  options: RedisDriverOptions,
  how: { label: string; cluster: boolean },
): RedisDriver {
  const { namespace } = options
  const replicas = options.wait ?? 0
  // A write waits for its replicas half the store timeout: the other half is for the write.
  const waitMs = Math.max(1, Math.floor((options.storeTimeoutMs ?? 5000) / 2))
  // The server's version, checked once per connection (a Redis may come back older).
  let supported = false
  let checking: Promise<void> | undefined
  const checked = () =>
    (checking ??= (async () => {
      const client = await connection.client()
      checkRedisServer(await client.info('server'), how.label, how.cluster)
      supported = true
    })().catch((error: unknown) => {
      // Refused for good when unsupported; a failure to ask is asked again by the next call.
      if (!(error instanceof UnsupportedStoreError)) checking = undefined
      throw error
    }))

  // `wrote`: the call wrote to the slot of this key, and is acknowledged once replicas have it.
  const call = async <T>(
    work: (client: RedisClient) => Promise<T>,
    wrote?: (result: T) => string | undefined,
  ): Promise<T> => {
    try {
      if (!supported) await checked()
      const client = await connection.client()
      const result = await work(client)
      const key = replicas > 0 ? wrote?.(result) : undefined
      if (key !== undefined) await connection.replicated(client, key, replicas, waitMs)
      return result
    } catch (error) {
      connection.failed(error)
      throw connection.unavailable(error)
    }
  }
  // A write script answers how many things it wrote (0: none): then it waits for replicas,
  // unless its caller waits itself (`waits` false). A read script answers a table.
  const run = (script: string, keys: string[], args: string[], waits = true) =>
    call(
      async (redis) => {
        const sha = shaOf(script)
        try {
          return await redis.evalSha(sha, { keys, arguments: args })
        } catch (error) {
          if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error
          return redis.eval(script, { keys, arguments: args })
        }
      },
      (result) => (waits && typeof result === 'number' && result > 0 ? keys[0] : undefined),
    )
  const written = <T>(key: string, work: (client: RedisClient) => Promise<T>) =>
    call(work, () => key)
  const watchers = createWatchers((hub) =>
    subscribeToChanges(connection, redisChangedChannel(namespace), hub),
  )
  const ownersKey = redisOwnersKey(namespace)
  const shared: RedisShared = {
    namespace,
    call,
    run,
    written,
    put: createRedisPuts({
      run: (script, keys, args) => run(script, keys, args, false),
      changedChannel: redisChangedChannel(namespace),
      list: (owner) =>
        written(ownersKey, (redis) => redis.zAdd(ownersKey, { score: 0, value: owner })),
      replicated: replicas > 0 ? (key) => written(key, async () => undefined) : undefined,
    }),
    caches: createOwnerCaches<Movie>(),
    texts: createMovieCache(),
    wake: watchers.wake,
  }

  return {
    kind: 'redis',
    remote: true,
    atomic: true,
    log: (owner) => redisLog(shared, owner),
    drop: async (owner) => {
      await dropRedisLog(run, namespace, owner)
      // Last, once the movies are gone: a drop that fails before leaves the owner listed.
      await written(ownersKey, (redis) => redis.zRem(ownersKey, owner))
      // Its watchers read the history again, and find it gone.
      watchers.wake(owner)
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
          redis.zRange(ownersKey, start, '+', {
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
    classifyFailure: classifyRedisFailure,
    onChange: watchers.onChange,
    close: async () => {
      await watchers.close()
      await connection.close()
    },
    checked,
    unchecked: () => {
      supported = false
      checking = undefined
    },
  }
}

/**
 * A Redis store for `createMovieLog`: a `redis://`, `rediss://` or `redis+cluster://` URL
 * (`?wait=N` for replicas; needs `@keyv/redis`), or a node-redis client or cluster of yours,
 * which the log's `close()` leaves open.
 *
 * @example
 * ```ts
 * import { createMovieLog } from 'movie-log'
 * import { redis } from 'movie-log/redis'
 *
 * const log = createMovieLog(redis('redis://127.0.0.1:6379'))
 * ```
 */
export function redis(target: string | RedisClient | RedisCluster): StoreAdapter {
  return {
    kind: 'redis',
    remote: true,
    open: async (o) =>
      typeof target === 'string' ? openRedisDriver(target, o) : redisDriverOver(target, o),
    classifyFailure: classifyRedisFailure,
  }
}
