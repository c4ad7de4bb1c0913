import { UnsupportedStoreError } from '../../core/errors'
import { redact } from '../../core/store-url'
import { importPeer } from '../shared/peer'
import { isConnectionFailure, NotReplicated, RedisUnavailable } from '../shared/redis-failures'
import { loadKeyvRedis, type RedisClient, type RedisConnection, waitOf } from './connect'

/**
 * The node-redis cluster calls the Redis driver makes beyond a client's, all documented by
 * node-redis (docs/clustering.md, and its typings): `sendCommand(firstKey, isReadonly, args)`
 * routes a command by its key's slot, `slots` is the slot map, `duplicate` a cluster like it.
 */
export interface RedisCluster
  extends Omit<RedisClient, 'isReady' | 'sendCommand' | 'on' | 'off' | 'duplicate'> {
  sendCommand(firstKey: string, isReadonly: boolean, args: string[]): Promise<unknown>
  readonly slots: readonly unknown[]
  duplicate(overrides?: { minimizeConnections?: boolean }): RedisCluster
  on(event: string, listener: (error?: unknown) => void): unknown
}

// The slots of a cluster: a map with a hole is a cluster not ready.
const SLOTS = 16384
// Attempts to connect a node again after its connection was lost, before giving it up.
const RECONNECTS = 2
// At least this long between two reads of a cluster's map while its calls keep failing.
const REFRESH_GAP_MS = 250

/** What a `redis+cluster://` or `rediss+cluster://` URL says. */
export interface ClusterUrl {
  /** `redis://[user:password@]host:port` (or `rediss://`) of each node named. */
  rootNodes: string[]
  username?: string
  password?: string
  tls: boolean
  /** The `wait` parameter: replicas each write waits for. */
  wait?: number
}

/**
 * Reads `redis+cluster://[[USER]:PASSWORD@]HOST:PORT,HOST:PORT,…[/][?wait=N]` (`rediss+cluster`
 * for TLS). A cluster has database 0 only, so a path naming another is refused.
 *
 * @example
 * ```ts
 * parseClusterUrl('redis+cluster://:secret@10.0.0.1:7000,10.0.0.2:7000') // two root nodes
 * ```
 */
export function parseClusterUrl(url: string): ClusterUrl {
  const match =
    /^(rediss?)\+cluster:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/?#@]+)\/?(0?)(?:\?([^#]*))?$/i.exec(
      url,
    )
  const hosts = match?.[4]?.split(',') ?? []
  const wellFormed = (host: string) => /^(\[[0-9a-f:.]+\]|[^:[\]\s]+)(:\d{1,5})?$/i.test(host)
  if (!match || hosts.length === 0 || !hosts.every(wellFormed)) {
    throw new UnsupportedStoreError(
      `'${redact(url)}' is not a Redis Cluster URL (redis+cluster://[[USER]:PASSWORD@]HOST:PORT,HOST:PORT,…)`,
    )
  }
  const [, scheme = 'redis', user, password, , , query = ''] = match
  const tls = scheme.toLowerCase() === 'rediss'
  const wait = waitOf(new URLSearchParams(query), `The Redis Cluster URL '${redact(url)}'`)
  const scheme1 = tls ? 'rediss' : 'redis'
  return {
    rootNodes: hosts.map(
      (host) => `${scheme1}://${host.includes(':') && !host.endsWith(']') ? host : `${host}:6379`}`,
    ),
    ...(user ? { username: decodeURIComponent(user) } : {}),
    ...(password !== undefined ? { password: decodeURIComponent(password) } : {}),
    tls,
    ...(wait !== undefined ? { wait } : {}),
  }
}

/**
 * A cluster connection on a `redis+cluster://` URL: node-redis's `createCluster` (as
 * `@keyv/redis` exports it), wired to fail fast: no offline queue (a call to a node that is
 * not connected fails at once), a node's connection tried twice more 100 ms apart when it is
 * lost (a connection an idle timeout closed comes back) and then given up, nodes connected on
 * first use.
 * node-redis reads the cluster's map again only on a MOVED or ASK reply, which a master that
 * died never sends; so a call that fails for a reason a changed map may explain (a connection
 * lost or refused, CLUSTERDOWN, TRYAGAIN, MOVED past its redirections) reads it again here, at
 * most every 250 ms, in a new cluster connection made with `duplicate()` that replaces this
 * one once it is connected and covers every slot.
 */
export async function openRedisCluster(
  url: string,
  connectTimeoutMs: number,
  load: typeof loadKeyvRedis = loadKeyvRedis,
) {
  const parsed = parseClusterUrl(url)
  const { createCluster } = await importPeer('@keyv/redis', 'redis+cluster://', load)
  const made = () =>
    createCluster({
      rootNodes: parsed.rootNodes.map((node) => ({ url: node })),
      minimizeConnections: true,
      defaults: {
        ...(parsed.username ? { username: parsed.username } : {}),
        ...(parsed.password !== undefined ? { password: parsed.password } : {}),
        disableOfflineQueue: true,
        socket: {
          connectTimeout: connectTimeoutMs,
          reconnectStrategy: (retries: number) => (retries < RECONNECTS ? 100 : false),
          tls: parsed.tls,
        },
      },
    } as Parameters<typeof createCluster>[0]) as unknown as RedisCluster
  const connection = clusterConnection(made(), {
    owned: true,
    where: `The Redis Cluster at ${redact(url)}`,
  })
  // Connect once, here; a cluster not there yet is no error: calls fail, and connect, until it is.
  await connection.client().catch(() => {})
  return { connection, wait: parsed.wait }
}

/**
 * The connection of a Redis driver over a cluster: `cluster` (connected here on first use if it
 * is not open), replaced by a `duplicate()` of it when a call fails in a way a stale map
 * explains. `owned`: closed with the driver (a caller's cluster is left open; the duplicates
 * made here are closed).
 */
export function clusterConnection(
  first: RedisCluster,
  how: { owned: boolean; where: string },
): RedisConnection & { readonly current: RedisCluster } {
  let current = first
  let connected: Promise<RedisCluster> | undefined
  let refreshing: Promise<void> | undefined
  let lastRefresh = 0
  let closed = false
  let why: unknown
  const made = new Set<RedisCluster>()

  const listen = (cluster: RedisCluster) => {
    // node-redis raises an error event for each failed discovery and node: heard, or it would
    // end the process. The latest says why the cluster cannot be used.
    const heard = (error: unknown) => {
      why = error
    }
    cluster.on('error', heard)
    cluster.on('node-error', heard)
  }
  listen(first)

  /** Connects `cluster` and checks its map covers every slot. */
  const ready = async (cluster: RedisCluster) => {
    if (!cluster.isOpen) await cluster.connect()
    let covered = 0
    for (const shard of cluster.slots) if (shard) covered++
    if (covered < SLOTS) {
      throw new RedisUnavailable(`${how.where} serves ${covered} of its ${SLOTS} slots`)
    }
    return cluster
  }
  const drop = (cluster: RedisCluster) => {
    if (cluster === first && !how.owned) return
    made.delete(cluster)
    if (cluster.isOpen) cluster.close().catch(() => {})
  }

  const refresh = () => {
    if (closed || refreshing || Date.now() - lastRefresh < REFRESH_GAP_MS) return
    lastRefresh = Date.now()
    const next = current.duplicate({ minimizeConnections: true })
    made.add(next)
    listen(next)
    refreshing = ready(next)
      .then(() => {
        if (closed) return drop(next)
        const old = current
        current = next
        connected = Promise.resolve(next)
        drop(old)
      })
      .catch(() => drop(next))
      .finally(() => {
        refreshing = undefined
        lastRefresh = Date.now()
      })
  }

  return {
    get current() {
      return current
    },
    // The driver calls only commands on it, which a cluster routes by their first key.
    client: () => {
      connected ??= ready(current).catch((error: unknown) => {
        connected = undefined
        throw error
      })
      return connected as Promise<unknown> as Promise<RedisClient>
    },
    replicated: async (client, key, replicas, timeoutMs) => {
      const cluster = client as unknown as RedisCluster
      const acknowledged = Number(
        await cluster.sendCommand(key, false, ['WAIT', String(replicas), String(timeoutMs)]),
      )
      if (acknowledged < replicas) throw new NotReplicated(acknowledged, replicas, timeoutMs)
    },
    failed: (error) => {
      if (calledForRefresh(error)) refresh()
    },
    unavailable: (error) =>
      !isConnectionFailure(error)
        ? error
        : new RedisUnavailable(
            `${how.where} is unavailable: ${why instanceof Error ? why.message : (error as Error).message}`,
            { cause: why ?? error },
          ),
    close: async () => {
      closed = true
      await refreshing
      const all = [...made, ...(how.owned ? [first] : [])]
      await Promise.allSettled(
        all.map((cluster) => (cluster.isOpen ? cluster.close() : Promise.resolve())),
      )
    },
  }
}

// Errors after which the cluster's map may be stale: a node gone or refusing, the cluster down
// or reshaping, redirections past node-redis's limit, a write to a node demoted to replica.
function calledForRefresh(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  if (isConnectionFailure(error)) return true
  if (error instanceof NotReplicated) return false
  if (error instanceof RedisUnavailable) return true
  return /^(CLUSTERDOWN|TRYAGAIN|MOVED|ASK|READONLY|MASTERDOWN)\b/.test(error.message)
}
