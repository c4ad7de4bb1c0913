import { randomUUID } from 'node:crypto'
import { createClient } from '@keyv/redis'
import { afterAll, expect, it } from 'vitest'
import type { StoreDriver } from '../src/core/driver'
import type { Movie } from '../src/core/movie'
import type { RedisClient } from '../src/drivers/redis/connect'
import { openRedisDriver, redisDriverOver } from '../src/drivers/redis/driver'
import { aMovie } from './_movies'
import { describeWith } from './_services'

// Issue 55: a drop deleted the movies it listed, then the sets; an add between the two left its
// movie and its keys with nothing naming them and no expiry, kept after the log was dropped.
const url = process.env.REDIS_URL as string

describeWith('REDIS_URL', 'Redis driver: a drop against the adds', () => {
  const raw = createClient({ url })
  const opened: StoreDriver[] = []
  afterAll(async () => {
    await Promise.allSettled(opened.map((driver) => driver.drop('alice')))
    await Promise.allSettled(opened.map((driver) => driver.close()))
    if (raw.isOpen) await raw.close()
  })
  const movie = (id: string): Movie =>
    Object.freeze({ ...aMovie({ title: `Movie ${id}` }), notes: 'words', id }) as Movie
  const keysOf = async (namespace: string) => {
    const keys: string[] = []
    for await (const batch of raw.scanIterator({ MATCH: `{${namespace}:*`, COUNT: 1000 }))
      keys.push(...batch)
    return keys.sort()
  }

  it('leaves no key of the log when another process adds while it drops', async () => {
    await raw.connect()
    const namespace = `test-${randomUUID()}`
    const other = await openRedisDriver(url, { namespace, connectTimeoutMs: 2000 })
    opened.push(other)
    // The dropping driver's client: once its drop has emptied the last set of names (the
    // links), the other process adds a movie before the drop's next command reaches Redis.
    const client = createClient({ url })
    await client.connect()
    let added = 0
    const afterScript = async (keys: string[] | undefined) => {
      if (added === 0 && keys?.[0]?.endsWith(':links')) {
        added += 1
        expect(await other.log('alice').put(movie('late'))).toBe(true)
      }
    }
    const watched = new Proxy(client, {
      get(target, name) {
        const value = Reflect.get(target, name, target)
        if (typeof value !== 'function') return value
        if (name !== 'evalSha' && name !== 'eval') return value.bind(target)
        return async (script: string, options: { keys?: string[] }) => {
          const result = await value.call(target, script, options)
          await afterScript(options?.keys)
          return result
        }
      },
    }) as RedisClient
    const driver = redisDriverOver(watched, { namespace, connectTimeoutMs: 2000 })
    opened.push(driver)
    try {
      const log = driver.log('alice')
      for (let n = 0; n < 3; n++) expect(await log.put(movie(`id-${n}`))).toBe(true)
      // A read counts the movies' words, so the drop has search keys to delete as well.
      expect(await log.search({ whole: [], prefix: 'words' }, 10)).toHaveLength(3)
      await driver.drop('alice')
      expect(added).toBe(1)
      expect(await keysOf(namespace)).toEqual([])
      expect(await other.log('alice').listAfter(undefined, Infinity)).toEqual([])
    } finally {
      await client.close()
    }
  })
})
