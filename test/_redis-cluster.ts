/**
 * A Redis Cluster of our own on loopback: 3 masters and 3 replicas, each a `redis-server` on a
 * free port with its nodes.conf in a temp folder, joined by `redis-cli --cluster create`. Suites
 * on it use `describeWith('redis-cluster', …)` (_services.ts): they run where REDIS_CLUSTER=1 or
 * CI=true, and under CI a machine without redis-server fails the run. The bench uses it too.
 */
import { execFile } from 'node:child_process'
import { createServer } from 'node:net'
import { promisify } from 'node:util'
import { createClient } from '@keyv/redis'
import { type Child, startPrivateRedis, stop } from './_processes'

const run = promisify(execFile)

type Shards = [from: number, to: number, master: [host: string, port: number]][]

/** One node of the cluster. */
export interface ClusterNode {
  port: number
  child: Child
}

export interface TestCluster {
  /** `redis+cluster://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3` (three of the nodes). */
  url: string
  nodes: ClusterNode[]
  /** The node serving `key`'s slot as master now. */
  masterOf(key: string): Promise<ClusterNode>
  /** Kills a node at once (SIGKILL). */
  kill(node: ClusterNode): Promise<void>
  /** Starts a killed node again, on its port and nodes.conf: it rejoins, as a replica. */
  restart(node: ClusterNode): Promise<void>
  /** Resolves once every live node says cluster_state:ok and every master has an online replica. */
  settled(timeoutMs?: number): Promise<void>
  /** Runs a command on one node (`CLUSTER INFO`, `CLUSTER KEYSLOT k`, …). */
  command(node: ClusterNode, args: string[]): Promise<unknown>
  stop(): Promise<void>
}

/** Starts 6 nodes in `folder`, makes them a cluster and waits until it serves. */
export async function startRedisCluster(folder: string): Promise<TestCluster> {
  const ports: number[] = []
  while (ports.length < 6) {
    const port = await freeClusterPort()
    if (!ports.includes(port)) ports.push(port)
  }
  const args = (port: number) => [
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    `${folder}/nodes-${port}.conf`,
    '--cluster-node-timeout',
    '2000',
    // A replica that rejoins syncs at once, not after the default 5 s wait for other replicas.
    '--repl-diskless-sync-delay',
    '0',
    '--dir',
    folder,
  ]
  const nodes: ClusterNode[] = await Promise.all(
    ports.map(async (port) => ({ port, child: await startPrivateRedis(port, args(port)) })),
  )
  const clients = new Map<number, ReturnType<typeof createClient>>()
  const clientOf = async (node: ClusterNode) => {
    let client = clients.get(node.port)
    if (!client) {
      client = createClient({
        url: `redis://127.0.0.1:${node.port}`,
        disableOfflineQueue: true,
        socket: { reconnectStrategy: false },
      })
      client.on('error', () => {})
      clients.set(node.port, client)
    }
    if (!client.isOpen) await client.connect()
    return client
  }
  const command = async (node: ClusterNode, command: string[]) => {
    try {
      return await (await clientOf(node)).sendCommand(command)
    } catch (error) {
      clients.delete(node.port)
      throw error
    }
  }
  const alive = (node: ClusterNode) =>
    node.child.process.exitCode === null && !node.child.process.signalCode

  // A key of each master's slots, found by asking: the master then writes it and WAITs.
  const probes = new Map<number, string>()
  const replicates = async (master: ClusterNode) => {
    const shards = (await command(master, ['CLUSTER', 'SLOTS'])) as unknown as Shards
    const mine = shards.filter((shard) => shard[2][1] === master.port)
    let probe = probes.get(master.port)
    for (let n = 0; probe === undefined || !(await owns(mine, probe)); n++) probe = `probe-${n}`
    probes.set(master.port, probe)
    await command(master, ['SET', probe, '1'])
    return Number(await command(master, ['WAIT', '1', '100'])) === 1
  }
  const owns = async (shards: Shards, key: string) => {
    const slot = Number(
      await command(nodes.find(alive) as ClusterNode, ['CLUSTER', 'KEYSLOT', key]),
    )
    return shards.some(([from, to]) => from <= slot && slot <= to)
  }

  const settled = async (timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs
    let last = ''
    for (;;) {
      try {
        const live = nodes.filter(alive)
        const infos = await Promise.all(live.map((node) => command(node, ['CLUSTER', 'INFO'])))
        const replication = await Promise.all(
          live.map((node) => command(node, ['INFO', 'replication'])),
        )
        const ok = infos.every((info) => /cluster_state:ok/.test(String(info)))
        const masters = live.filter((_, at) => /role:master/.test(String(replication[at])))
        // A replica online takes writes: a write to each master is acknowledged by WAIT.
        const replicated =
          ok && masters.length === 3
            ? (await Promise.all(masters.map(replicates))).every(Boolean)
            : false
        if (replicated) return
        last = `${infos.map((info) => /cluster_state:\w+/.exec(String(info))?.[0]).join(' ')}; ${masters.length} masters, replicated: ${replicated}`
      } catch (error) {
        last = String(error)
      }
      if (Date.now() > deadline) throw new Error(`the test cluster did not settle: ${last}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  await run('redis-cli', [
    '--cluster',
    'create',
    ...ports.map((port) => `127.0.0.1:${port}`),
    '--cluster-replicas',
    '1',
    '--cluster-yes',
  ])
  const cluster: TestCluster = {
    url: `redis+cluster://${ports
      .slice(0, 3)
      .map((port) => `127.0.0.1:${port}`)
      .join(',')}`,
    nodes,
    command,
    settled,
    masterOf: async (key) => {
      const slot = Number(
        await command(nodes.find(alive) as ClusterNode, ['CLUSTER', 'KEYSLOT', key]),
      )
      for (const node of nodes.filter(alive)) {
        const text = String(await command(node, ['INFO', 'replication']))
        if (!/role:master/.test(text)) continue
        const shards = (await command(node, ['CLUSTER', 'SLOTS'])) as unknown as Shards
        const shard = shards.find(([from, to]) => from <= slot && slot <= to)
        if (shard?.[2][1] === node.port) return node
      }
      throw new Error(`no live master serves the slot of ${key}`)
    },
    kill: async (node) => {
      clients.get(node.port)?.destroy()
      clients.delete(node.port)
      await stop(node.child, 'SIGKILL')
    },
    restart: async (node) => {
      node.child = await startPrivateRedis(node.port, args(node.port))
    },
    stop: async () => {
      for (const client of clients.values()) client.destroy()
      clients.clear()
      await Promise.all(nodes.map((node) => stop(node.child, 'SIGKILL')))
    },
  }
  try {
    await settled()
  } catch (error) {
    await cluster.stop()
    throw error
  }
  return cluster
}

// A free port whose cluster bus port (port + 10000) is free as well.
async function freeClusterPort(): Promise<number> {
  for (;;) {
    const port = await listenOnce(0)
    if (port < 55_000 && (await listenOnce(port + 10_000).catch(() => 0)) !== 0) return port
  }
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number }
      server.close(() => resolve(bound))
    })
  })
}
