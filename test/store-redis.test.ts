import KeyvRedis, { createClient } from '@keyv/redis'
import { type ClosableMovieLog, createMovieLog, type MovieLogStore } from 'movie-log'
import { openRedisDriver } from '../src/drivers/redis/driver'
import { keyvBackend } from './_backends'
import { describeDriverSuite } from './_driver-suite'
import { describeOwnerSuite } from './_driver-suite-owners'
import { freePort } from './_ports'
import { describeStoreSuite, type StoreBackend } from './_store-suite'
import { describeWatchSuite } from './_store-suite-watch'

const url = process.env.REDIS_URL as string
const openDriver = (namespace: string) =>
  openRedisDriver(url, { namespace, connectTimeoutMs: 1000 })

// Every namespace a test wrote to, dropped after it, so the shared Redis stays clean.
const written = new Set<string>()
async function dropWritten() {
  for (const namespace of written) {
    const driver = await openDriver(namespace)
    await driver.drop('')
    await driver.close()
  }
  written.clear()
}

/** Logs opened by URL (`createMovieLog('redis://…')`), each closed after its test. */
function byUrl(): [
  StoreBackend,
  (store: MovieLogStore, options?: object) => Promise<ClosableMovieLog>,
] {
  const logs: ClosableMovieLog[] = []
  const unreachable = freePort().then((port) => `redis://127.0.0.1:${port}`)
  const backend: StoreBackend = {
    name: 'Redis',
    open: async (namespace) => {
      written.add(namespace)
      return url as unknown as MovieLogStore
    },
    openUnreachable: async () => (await unreachable) as unknown as MovieLogStore,
    closeAll: async () => {
      await Promise.allSettled(logs.splice(0).map((log) => log.close()))
      await dropWritten()
    },
    openDriver,
  }
  const connect = async (store: MovieLogStore, options?: object) => {
    const log = createMovieLog(store as unknown as string, { connectTimeoutMs: 1000, ...options })
    logs.push(log)
    return log
  }
  return [backend, connect]
}

if (url) {
  const [backend, connect] = byUrl()
  describeStoreSuite(backend, { connect })
  // The history in Redis (issue 29): `createMovieLog(url)` and `createMovieLogs(url)`.
  describeWatchSuite(backend)
  // Logs on a KeyvRedis of the caller's: the Redis driver on its documented `client`.
  const keyvRedis = () => {
    const client = createClient({ url, disableOfflineQueue: true })
    client.on('error', () => {})
    return new KeyvRedis(client)
  }
  describeStoreSuite(
    keyvBackend(
      'Redis, a KeyvRedis given',
      keyvRedis,
      () => {
        // Nothing listens there, and it does not retry: connecting fails at once, every time.
        const client = createClient({
          url: 'redis://127.0.0.1:1',
          disableOfflineQueue: true,
          socket: { reconnectStrategy: false },
        })
        client.on('error', () => {})
        return new KeyvRedis(client)
      },
      {
        drop: async (namespace) => {
          written.add(namespace)
          await dropWritten()
        },
      },
    ),
  )
  // An owner whose name holds what a key or a hash tag would misread.
  describeDriverSuite('Redis, an owner named a{b}:c *', openDriver, 'a{b}:c *')
  describeOwnerSuite('Redis', openDriver)
} else describeStoreSuite('REDIS_URL')
