import { randomUUID } from 'node:crypto'
import KeyvRedis, { createCluster } from '@keyv/redis'
import {
  createMovieLog,
  createMovieLogs,
  type MovieLogStore,
  StoreUnavailableError,
} from 'movie-log'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { SOLE_OWNER } from '../../src/core/driver'
import { openRedisDriver } from '../../src/drivers/redis/driver'
import { redisLogKeys } from '../../src/drivers/redis/keys'
import { openCheckedLogs } from '../../src/server/store'
import { keyvBackend, urlBackend } from '../_backends'
import { describeChangeSuite } from '../_change-conformance'
import { describeDriverSuite } from '../_driver-suite'
import { describeOwnerSuite } from '../_driver-suite-owners'
import { aMovie } from '../_movies'
import { freePort } from '../_ports'
import { startRedisCluster, type TestCluster } from '../_redis-cluster'
import { describeWith } from '../_services'
import { describeStoreSuite, type StoreBackend } from '../_store-suite'
import { describeWatchSuite } from '../_store-suite-watch'
import { tempFolders } from '../_temp'

// The store and driver conformance suites on a Redis Cluster of our own (3 masters, 3
// replicas), by its redis+cluster:// URL and through a KeyvRedis over createCluster; and how
// 1,000 owners land on its masters.
const folder = tempFolders()
let cluster: TestCluster
// The suites are declared before the cluster starts: they read its URL when they run.
const url = () => cluster.url

describeWith('redis-cluster', 'Redis Cluster', () => {
  beforeAll(async () => {
    cluster = await startRedisCluster(folder('movie-log-cluster-'))
  }, 60_000)
  afterAll(async () => {
    await cluster?.stop()
  })

  const openDriver = (namespace: string) =>
    openRedisDriver(url(), { namespace, connectTimeoutMs: 1000 })

  // First of the file, while this test's and the driver's are the only connections to the master.
  it('gets a node connection the server closed back by itself, with no restart', async () => {
    const namespace = `test-${randomUUID()}`
    const logs = createMovieLogs(url(), { namespace })
    try {
      const log = logs.of('alice')
      const movie = await log.addMovie(aMovie({ title: 'Before the idle timeout' }))
      const master = await cluster.masterOf(redisLogKeys(namespace, 'alice').ids)
      const normal = async () =>
        String(await cluster.command(master, ['CLIENT', 'LIST', 'TYPE', 'normal']))
          .split('\n')
          .filter(Boolean).length
      expect(await normal()).toBe(2) // the driver's and this test's
      // As an idle timeout would: every connection but this test's closed by the server.
      await cluster.command(master, ['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes'])
      await vi.waitFor(async () => expect(await normal()).toBe(2), { timeout: 5000, interval: 20 })
      // The server counts the connection once it is accepted, a moment before node-redis has it
      // ready: a call in that moment may fail (it did once in CI), so the read is asked until
      // it answers. Given up, the connection would never come back, and this would time out.
      await vi.waitFor(async () => expect((await log.listMovies()).movies).toEqual([movie]), {
        timeout: 5000,
        interval: 50,
      })
      await logs.drop('alice')
    } finally {
      await logs.close()
    }
  })

  const byUrl: StoreBackend = {
    ...lazyUrlBackend(),
    openDriver,
  }
  describeStoreSuite(byUrl)
  describeWatchSuite(byUrl)

  describeStoreSuite(
    keyvBackend(
      'Redis Cluster, a KeyvRedis over createCluster',
      () => {
        const nodes = createCluster({
          rootNodes: url()
            .slice('redis+cluster://'.length)
            .split(',')
            .map((host) => ({ url: `redis://${host}` })),
          defaults: { disableOfflineQueue: true },
        })
        nodes.on('error', () => {})
        return new KeyvRedis(nodes as ConstructorParameters<typeof KeyvRedis>[0])
      },
      () => {
        const nodes = createCluster({
          rootNodes: [{ url: 'redis://127.0.0.1:1' }],
          defaults: { disableOfflineQueue: true, socket: { reconnectStrategy: false } },
        })
        nodes.on('error', () => {})
        return new KeyvRedis(nodes as ConstructorParameters<typeof KeyvRedis>[0])
      },
      {
        drop: async (namespace) => {
          const driver = await openDriver(namespace)
          await driver.drop(SOLE_OWNER).finally(() => driver.close())
        },
      },
    ),
  )
  describeDriverSuite('Redis Cluster', openDriver)
  // The live feed's history and wakes: PUBLISH from a script is heard on every node.
  describeChangeSuite('Redis Cluster', openDriver, { bound: 1000, keptAtMost: 1100, url })
  describeDriverSuite('Redis Cluster, an owner named a{b}:c *', openDriver, 'a{b}:c *')
  describeOwnerSuite('Redis Cluster', openDriver)

  it('gets the Redis driver for a KeyvRedis over createCluster, not the scan', async () => {
    const nodes = createCluster({
      rootNodes: [{ url: `redis://${url().slice('redis+cluster://'.length).split(',')[0]}` }],
    })
    nodes.on('error', () => {})
    const warnings: string[] = []
    const onWarning = (warning: Error) => warnings.push(warning.message)
    process.on('warning', onWarning)
    const namespace = `test-${randomUUID()}`
    const log = createMovieLog(new KeyvRedis(nodes as ConstructorParameters<typeof KeyvRedis>[0]), {
      namespace,
    })
    try {
      const movie = await log.addMovie(aMovie({ title: 'On the cluster' }))
      expect((await log.listMovies()).movies).toEqual([movie])
      const driver = await openDriver(namespace)
      expect(await driver.log(SOLE_OWNER).get(movie.id)).toEqual(movie)
      await driver.drop(SOLE_OWNER).finally(() => driver.close())
      expect(warnings.filter((message) => /scan driver/.test(message))).toEqual([])
    } finally {
      process.off('warning', onWarning)
      await nodes.close()
    }
  })

  it('opens as the server opens it, by its URL', async () => {
    const logs = await openCheckedLogs(url(), { namespace: `test-${randomUUID()}` })
    expect(await logs.of('alice').listMovies()).toEqual({ movies: [], nextCursor: null })
    await logs.close()
  })

  it('spreads 1,000 owners over the 3 masters, each owner one slot', async () => {
    const namespace = `test-${randomUUID()}`
    const driver = await openDriver(namespace)
    const node = cluster.nodes[0] as (typeof cluster.nodes)[number]
    const bySlot = new Map<number, number>()
    const owners = Array.from({ length: 1000 }, (_, n) => `user-${n}`)
    for (const owner of owners) {
      const keys = redisLogKeys(namespace, owner)
      const slots = new Set<number>()
      for (const key of [keys.ids, keys.dates, keys.changes, keys.records, `${keys.movie}x`])
        slots.add(Number(await cluster.command(node, ['CLUSTER', 'KEYSLOT', key])))
      expect(slots.size, owner).toBe(1)
      const slot = [...slots][0] as number
      bySlot.set(slot, (bySlot.get(slot) ?? 0) + 1)
    }
    const shards = (await cluster.command(node, ['CLUSTER', 'SLOTS'])) as [
      number,
      number,
      [string, number],
    ][]
    const perMaster = new Map<number, number>()
    for (const [slot, count] of bySlot) {
      const port = shards.find(([from, to]) => from <= slot && slot <= to)?.[2][1] as number
      perMaster.set(port, (perMaster.get(port) ?? 0) + count)
    }
    const counts = [...perMaster.values()].sort((a, b) => a - b)
    console.log(
      `1,000 owners on 3 masters: ${[...perMaster].map(([port, count]) => `:${port} ${count}`).join(', ')}; ${bySlot.size} distinct slots`,
    )
    expect(perMaster.size).toBe(3)
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1000)
    // Even within chance: each master near a third.
    for (const count of counts) expect(count).toBeGreaterThan(250)
    await driver.close()
  })

  it('waits for a replica after each write: a write none acknowledges in time is a 503', async () => {
    const namespace = `test-${randomUUID()}`
    const logs = createMovieLogs(url(), { namespace, storeTimeoutMs: 1000 })
    try {
      const log = logs.of('alice')
      const first = await log.addMovie(aMovie({ title: 'Replicated' }))
      const master = await cluster.masterOf(redisLogKeys(namespace, 'alice').ids)
      // The one replica of that master killed: WAIT 1 times out.
      const replicas = []
      for (const node of cluster.nodes) {
        const text = String(await cluster.command(node, ['INFO', 'replication']))
        if (new RegExp(`master_port:${master.port}\\b`).test(text)) replicas.push(node)
      }
      expect(replicas.length).toBe(1)
      const replicaNode = replicas[0] as (typeof replicas)[number]
      await cluster.kill(replicaNode)
      const started = Date.now()
      const error = await log.addMovie(aMovie({ title: 'Not replicated' })).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(StoreUnavailableError)
      expect(String((error as Error).cause)).toMatch(/0 of the 1 replica\(s\).*WAIT/)
      expect(Date.now() - started).toBeLessThan(1500)
      await cluster.restart(replicaNode)
      await cluster.settled()
      expect((await log.listMovies()).movies[0]).toEqual(first)
      await log.addMovie(aMovie({ title: 'Replicated again' }))
      await logs.drop('alice')
    } finally {
      await logs.close()
    }
  }, 60_000)
})

/** The cluster by its URL, read when the suite runs (the cluster starts in beforeAll). */
function lazyUrlBackend(): StoreBackend {
  const unreachable = freePort().then((port) => `redis+cluster://127.0.0.1:${port}`)
  let backend: StoreBackend | undefined
  const current = () => {
    backend ??= urlBackend('Redis Cluster', url(), 'unused')
    return backend
  }
  return {
    name: 'Redis Cluster',
    open: (namespace) => current().open(namespace),
    openUnreachable: async () => (await unreachable) as unknown as MovieLogStore,
    closeAll: async () => {
      if (backend) await backend.closeAll()
    },
  }
}
