// Issue 29: the Redis driver's change history, its SUBSCRIBE connection waking other processes'
// watchers, and waking them again once that connection is killed and comes back.
import { randomUUID } from 'node:crypto'
import { createClient } from '@keyv/redis'
import { afterEach, expect, it } from 'vitest'
import type { Movie } from '../src/core/movie'
import { openRedisDriver } from '../src/drivers/redis/driver'
import { describeChangeSuite, wakes } from './_change-conformance'
import { aMovie } from './_movies'
import { startPrivateRedis, stop } from './_processes'
import { describeWith } from './_services'

const url = process.env.REDIS_URL as string
const open = (storeUrl: string, namespace: string) =>
  openRedisDriver(storeUrl, { namespace, connectTimeoutMs: 1000 })

// XADD MAXLEN ~ trims whole stream nodes (100 entries by default): at most one more node kept.
if (url)
  describeChangeSuite('Redis', (namespace) => open(url, namespace), {
    bound: 1000,
    keptAtMost: 1100,
    url,
  })

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describeWith('redis-server', 'Redis change wakes', () => {
  it('wakes watchers again once its SUBSCRIBE connection was killed and is back, and hears changes then', async () => {
    const redis = await startPrivateRedis()
    cleanups.push(() => stop(redis))
    const namespace = `test-${randomUUID()}`
    const [driver, writer] = [await open(redis.url, namespace), await open(redis.url, namespace)]
    cleanups.push(
      () => driver.close(),
      () => writer.close(),
    )
    const { wake, next } = wakes()
    driver.onChange('alice', wake)
    await next(5000, 'the SUBSCRIBE connection ready')
    const admin = createClient({ url: redis.url })
    await admin.connect()
    cleanups.push(() => admin.close())
    expect(await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub'])).toBe(1)
    // Back, it wakes everyone: what was published meanwhile is read from the history.
    await next(5000, 'the SUBSCRIBE connection back')
    const added = { ...aMovie(), notes: '', id: randomUUID() } as Movie
    expect(await writer.log('alice').put(added)).toBe(true)
    await next(1000, 'a put after the SUBSCRIBE connection came back')
    const read = await driver.log('alice').latestChange()
    expect(read).toEqual(expect.any(String))
  })
})
