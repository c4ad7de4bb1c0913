import { UnsupportedStoreError } from '../../core/errors'
import { redact } from '../../core/store-url'
import { importPeer } from '../shared/peer'
import { isConnectionFailure, NotReplicated, RedisUnavailable } from '../shared/redis-failures'

/**
 * The node-redis calls the Redis driver makes, all of them documented by node-redis (its
 * README: commands in camelCase, `isReady`, `isOpen`, `close`, events; docs/clustering.md).
 * Typed here so the core needs no Redis package of its own.
 */
export interface RedisClient {
  readonly isReady: boolean
  readonly isOpen: boolean
  connect(): Promise<unknown>
  close(): Promise<void>
  destroy(): void
  on(event: 'error' | 'ready', listener: (error?: unknown) => void): unknown
  off(event: 'error' | 'ready', listener: (error?: unknown) => void): unknown
  get(key: string): Promise<string | null>
  mGet(keys: string[]): Promise<(string | null)[]>
  del(keys: string[]): Promise<number>
  exists(key: string): Promise<number>
  sScan(
    key: string,
    cursor: string,
    options: { COUNT: number },
  ): Promise<{ cursor: string; members: string[] }>
  sRandMemberCount(key: string, count: number): Promise<string[]>
  sCard(key: string): Promise<number>
  zAdd(key: string, member: { score: number; value: string }): Promise<number>
  zRem(key: string, member: string): Promise<number>
  zRange(
    key: string,
    min: string,
    max: string,
    options: { BY: 'LEX'; LIMIT: { offset: number; count: number } },
  ): Promise<string[]>
  info(section: string): Promise<string>
  /** A new client with this one's settings, not connected (for the SUBSCRIBE connection). */
  duplicate(): RedisClient
  subscribe(channel: string, listener: (message: string) => void): Promise<void>
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
  sendCommand(args: string[]): Promise<unknown>
}

/** Where one Redis driver sends its calls: one Redis, or a cluster it may replace. */
export interface RedisConnection {
  /** The client a call runs on now (a cluster's is replaced once its map is found stale). */
  client(): Promise<RedisClient>
  /**
   * Waits, on `client` (the connection the write went through), until `replicas` replicas of
   * the master that serves `key` have the writes made so far, for at most `timeoutMs`;
   * a store failure when they do not.
   */
  replicated(client: RedisClient, key: string, replicas: number, timeoutMs: number): Promise<void>
  /** Told of every call that failed: a cluster reads its map again after a node failed. */
  failed(error: unknown): void
  /** The error to raise for `error`: a connection error says why, in the first error's words. */
  unavailable(error: unknown): unknown
  close(): Promise<void>
}

/**
 * Loads @keyv/redis, whose node-redis both Redis drivers (one Redis, a cluster) use. Here, in a
 * module loaded only when a Redis URL is opened: a bundler of the core never meets the import.
 */
export const loadKeyvRedis = () => import('@keyv/redis')

// The first Redis with ZRANGE's BYLEX ... REV ... LIMIT form, which every page uses.
const OLDEST = [6, 2]

/**
 * Refuses, from `INFO server`'s text, a Redis older than 6.2 (naming the version found) and,
 * unless `cluster`, a Redis Cluster node, which one client cannot serve every owner's slot
 * from (a `redis+cluster://` URL opens the cluster). `label` names the Redis in the message
 * (`The Redis at redis://cache:6379`).
 *
 * @example
 * ```ts
 * checkRedisServer(await client.info('server'), 'The Redis at redis://cache:6379') // 6.0.16: throws
 * ```
 */
export function checkRedisServer(info: string, label: string, cluster = false): void {
  const version = /^redis_version:(\S+)/m.exec(info)?.[1]
  const [major = 0, minor = 0] = (version ?? '').split('.').map(Number)
  const [oldestMajor, oldestMinor] = OLDEST as [number, number]
  if (!version || major < oldestMajor || (major === oldestMajor && minor < oldestMinor)) {
    throw new UnsupportedStoreError(
      `${label} is ${version ? `version ${version}` : 'of no version it reports'}: movie-log needs Redis 6.2 or later`,
    )
  }
  if (!cluster && /^redis_mode:cluster\b/m.test(info)) {
    throw new UnsupportedStoreError(
      `${label} is a Redis Cluster node: a redis:// URL opens one Redis; open the cluster with redis+cluster://HOST:PORT,HOST:PORT`,
    )
  }
}

/**
 * Opens a node-redis client on a redis:// or rediss:// URL, wired to fail fast and reconnect:
 * no offline queue (a call while Redis is away fails at once rather than waiting for it), a
 * connect timeout, and a backoff up to 2 s between reconnects. It connects once, here, waiting
 * up to `connectTimeoutMs` for it to be ready or fail; a Redis that is not there yet is no error
 * (calls fail until it is).
 * `unavailable()` then says why a call failed while the client was not ready: the latest error
 * since it last was (refused, unknown host, wrong password), password hidden.
 */
export async function openRedisClient(
  url: string,
  connectTimeoutMs: number,
): Promise<{ client: RedisClient; unavailable: (error: unknown) => unknown }> {
  const database = URL.canParse(url) ? new URL(url).pathname.slice(1) : ''
  if (!URL.canParse(url) || !new URL(url).hostname || !/^\d*$/.test(database)) {
    throw new UnsupportedStoreError(
      URL.canParse(url) && new URL(url).hostname
        ? `The Redis URL '${redact(url)}' names the database '${decodeURIComponent(database)}': it must be a number, as in redis://HOST:6379/0`
        : `'${redact(url)}' is not a Redis URL with a host (redis://[[USER]:PASSWORD@]HOST[:PORT][/DB])`,
    )
  }
  const { createClient } = await importPeer('@keyv/redis', 'redis://', loadKeyvRedis)
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: connectTimeoutMs,
      reconnectStrategy: (retries: number) => Math.min(2 ** retries * 100, 2000),
    },
  }) as unknown as RedisClient
  // node-redis raises an error event for every failed connect; without a listener it would
  // end the process. The latest since the client was last ready says why it is not: the first
  // is often the socket that closed, where the reconnects that followed say why they fail (a
  // password changed meanwhile: WRONGPASS, not "unreachable").
  let why: unknown
  client.on('error', (error) => {
    why = error
  })
  client.on('ready', () => {
    why = undefined
  })
  // Connect once, here: concurrent first commands would race each other's connect(). Wait for
  // ready or the first error (it reconnects in the background), no timer outliving the wait
  // (a command-line run would wait for it before exiting).
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer)
      client.off('ready', done)
      client.off('error', done)
      resolve()
    }
    const timer = setTimeout(done, connectTimeoutMs)
    client.on('ready', done)
    client.on('error', done)
    client.connect().catch(() => {})
  })
  const where = redact(url)
  return {
    client,
    // Only an error that says no more than "offline" is explained; an error reply says itself.
    unavailable: (error) =>
      client.isReady || why === undefined || !isConnectionFailure(error)
        ? error
        : new RedisUnavailable(
            `The Redis at ${where} is unavailable: ${(why as Error).message ?? String(why)}`,
            { cause: why },
          ),
  }
}

/**
 * The connection of a Redis driver over one client: every call on it. `owned`: closed with the
 * driver (a caller's client is left open). A write waits for replicas with `WAIT` on the same
 * client, so on the connection the write went through.
 */
export function clientConnection(
  client: RedisClient,
  how: { owned: boolean; unavailable: (error: unknown) => unknown },
): RedisConnection {
  return {
    client: async () => {
      if (!client.isOpen && !how.owned) await client.connect().catch(() => {})
      return client
    },
    replicated: async (on, _key, replicas, timeoutMs) => {
      const args = ['WAIT', String(replicas), String(timeoutMs)]
      const acknowledged = Number(await on.sendCommand(args))
      if (acknowledged < replicas) throw new NotReplicated(acknowledged, replicas, timeoutMs)
    },
    failed: () => {},
    unavailable: how.unavailable,
    close: async () => {
      if (!how.owned) return
      if (client.isReady) await client.close()
      else client.destroy()
    },
  }
}

/**
 * The `wait` parameter of a redis:// URL, taken out: node-redis is given the URL without its
 * query (it reads none of it).
 */
export function waitParameter(url: string): { wait?: number; url: string } {
  const base = url.split('#', 1)[0] as string
  const at = base.indexOf('?')
  // A `?` before the `@` is in the password: that URL is node-redis's to refuse, and no part
  // of it may be named as a parameter.
  if (at === -1 || base.includes('@', at)) return { url }
  const params = new URLSearchParams(base.slice(at + 1))
  return { wait: waitOf(params, `The Redis URL '${redact(url)}'`), url: base.slice(0, at) }
}

/**
 * The `wait` of a Redis or Redis Cluster URL's parameters, the one they take: any other (a
 * `?namespace=` meant for the log's options) is refused, never dropped. `label` names the URL.
 */
export function waitOf(params: URLSearchParams, label: string): number | undefined {
  for (const name of params.keys()) {
    if (name !== 'wait') {
      throw new UnsupportedStoreError(
        `${label} has an unknown parameter '${name}': it takes only wait=N`,
      )
    }
  }
  const waits = params.getAll('wait')
  if (waits.length > 1) throw new UnsupportedStoreError(`${label} names wait more than once`)
  const [wait] = waits
  if (wait !== undefined && !/^\d$/.test(wait)) {
    throw new UnsupportedStoreError(
      `${label} has wait=${wait}: it must be a number of replicas, 0 to 9`,
    )
  }
  return wait === undefined ? undefined : Number(wait)
}
