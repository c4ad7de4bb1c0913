// Issue 60: two logs on one store, each with a deliverer of its own (as two server processes
// have): each change reaches the endpoint once, in order, whichever log made it, because one
// deliverer holds the endpoint's lease; and once that one stops, the other takes the lease over.
// On a SQLite file, Redis and PostgreSQL.
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import {
  type ClosableMovieLog,
  createMovieLog,
  type Movie,
  startWebhookDelivery,
  type WebhookDeliveryOptions,
  webhooksOf,
} from 'movie-log'
import { afterEach, expect, it } from 'vitest'
import { recordsOf } from '../src/core/records'
import { openPostgresDriver } from '../src/drivers/postgres/driver'
import { openRedisDriver } from '../src/drivers/redis/driver'
import { aMovie } from './_movies'
import { payloadsOf, startReceiver } from './_receiver'
import { describeWith } from './_services'
import { tempFolders } from './_temp'

const folder = tempFolders()
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

interface Store {
  url: () => string
  /** Deletes what a test wrote under its namespace. */
  drop?: (url: string, namespace: string) => Promise<void>
}

// No receiver here hangs: the time limit only guards against one that would.
const OPTIONS: WebhookDeliveryOptions = { allowPrivateNetworks: true, timeoutMs: 5000 }

// A log is closed once, by its test or after it.
const closed = new WeakSet<ClosableMovieLog>()
const closeOnce = async (log: ClosableMovieLog) => {
  if (closed.has(log)) return
  closed.add(log)
  await log.close()
}

function suite(name: string, store: Store) {
  const open = (url: string, namespace: string) => {
    const log = createMovieLog(url, { namespace, connectTimeoutMs: 1000 })
    cleanups.push(() => closeOnce(log))
    return log
  }
  const deliver = (log: ClosableMovieLog, options: WebhookDeliveryOptions = OPTIONS) => {
    const delivery = startWebhookDelivery(log, options)
    cleanups.push(() => delivery.stop())
    return delivery
  }
  const twoLogs = () => {
    const url = store.url()
    const namespace = `webhooks-${randomUUID()}`
    if (store.drop) cleanups.push(() => (store.drop as NonNullable<Store['drop']>)(url, namespace))
    return [open(url, namespace), open(url, namespace)] as const
  }

  it(`${name}: each change is delivered once, in order, by one of two deliverers`, async () => {
    const [first, second] = twoLogs()
    const receiver = await startReceiver()
    await webhooksOf(first, { allowPrivateNetworks: true }).add({ url: receiver.url })
    const deliveries = [deliver(first), deliver(second)]
    const added: Movie[] = []
    for (let at = 0; at < 12; at++) {
      added.push(await (at % 2 ? second : first).addMovie(aMovie({ title: `Movie ${at}` })))
    }
    await receiver.waitFor(added.length)
    // Stopped, each has sent all it would: nothing more comes, and nothing came twice.
    await Promise.all(deliveries.map((delivery) => delivery.stop()))
    expect(payloadsOf(receiver.received).map((payload) => payload.data.id)).toEqual(
      added.map((movie) => movie.id),
    )
  })

  it(`${name}: the lease of a deliverer that died passes to the other once its periods end`, async () => {
    const [first, second] = twoLogs()
    const receiver = await startReceiver()
    const { id } = await webhooksOf(first, { allowPrivateNetworks: true }).add({
      url: receiver.url,
    })
    // Short leases, so that the first's end within seconds.
    const quick = { ...OPTIONS, timeoutMs: 500, leaseMs: 2000, onError: () => {} }
    const firstDelivery = deliver(first, quick)
    // Once the first holds the endpoint's lease, its store goes, as with a process killed: it
    // cannot let the lease go.
    const period = Math.floor(Date.now() / quick.leaseMs)
    await expect
      .poll(() => recordsOf(first).read(`webhooks:lease:${id}:${period}`))
      .toEqual(expect.any(String))
    await closeOnce(first)
    await firstDelivery.stop()
    deliver(second, quick)
    const movie = await second.addMovie(aMovie({ title: 'After' }))
    await receiver.waitFor(1, 30_000)
    expect(payloadsOf(receiver.received).map((payload) => payload.data.id)).toEqual([movie.id])
  })

  it(`${name}: a deliverer that stops lets its lease go at once, after its deliveries in flight`, async () => {
    const [first, second] = twoLogs()
    const receiver = await startReceiver()
    await webhooksOf(first, { allowPrivateNetworks: true }).add({ url: receiver.url })
    // Leases of a minute: kept to their end, the second would wait far past the test's wait.
    const firstDelivery = deliver(first)
    const one = await first.addMovie(aMovie({ title: 'One' }))
    await receiver.waitFor(1)
    // Its delivery may still be waiting for the receiver's answer: stop waits for it.
    await firstDelivery.stop()
    deliver(second)
    const two = await second.addMovie(aMovie({ title: 'Two' }))
    await receiver.waitFor(2, 10_000)
    expect(payloadsOf(receiver.received).map((payload) => payload.data.id)).toEqual([
      one.id,
      two.id,
    ])
  })
}

suite('SQLite', { url: () => `sqlite://${join(folder('movie-log-webhooks-'), 'movies.sqlite')}` })

describeWith('REDIS_URL', 'Redis', () => {
  suite('Redis', {
    url: () => process.env.REDIS_URL as string,
    drop: async (url, namespace) => {
      const driver = await openRedisDriver(url, { namespace, connectTimeoutMs: 1000 })
      await driver.drop('')
      await driver.close()
    },
  })
})

describeWith('POSTGRES_URL', 'PostgreSQL', () => {
  suite('PostgreSQL', {
    url: () => process.env.POSTGRES_URL as string,
    drop: async (url, namespace) => {
      const driver = await openPostgresDriver(url, { namespace, connectTimeoutMs: 1000 })
      await driver.drop('')
      await driver.close()
    },
  })
})
