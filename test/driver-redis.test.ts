import { randomUUID } from 'node:crypto'
import { createClient } from '@keyv/redis'
import { afterAll, expect, it } from 'vitest'
import type { StoreDriver } from '../src/core/driver'
import type { Movie } from '../src/core/movie'
import type { RedisClient } from '../src/drivers/redis/connect'
import { openRedisDriver, redisDriverOver } from '../src/drivers/redis/driver'
import { encodeOwner } from '../src/drivers/redis/keys'
import { aMovie } from './_movies'
import { startPrivateClusterNode, stop } from './_processes'
import { describeWith, missing } from './_services'
import { tempFolders } from './_temp'

// The Redis driver's key layout on the shared Redis: owners apart, one slot per log, drop.
const url = process.env.REDIS_URL as string
const OWNERS = [
  'alice',
  'alice2',
  'alice}:record:x',
  '',
  'a{b}:c *',
  '}{',
  'Zoë 名前 🎬',
  'a b',
  '\ud800 lone',
]

describeWith('REDIS_URL', 'Redis driver: owners on one store', () => {
  const opened: StoreDriver[] = []
  const raw = createClient({ url })
  afterAll(async () => {
    await Promise.allSettled(opened.flatMap((driver) => OWNERS.map((owner) => driver.drop(owner))))
    await Promise.allSettled(opened.map((driver) => driver.close()))
    if (raw.isOpen) await raw.close()
  })
  const open = async (namespace = `test-${randomUUID()}`) => {
    const driver = await openRedisDriver(url, { namespace, connectTimeoutMs: 2000 })
    opened.push(driver)
    return { driver, namespace }
  }
  const movie = (id: string, title: string, screenedDate = '2024-05-01T20:30:00.000'): Movie =>
    Object.freeze({ ...aMovie({ title, screenedDate }), notes: '', id }) as Movie
  const keysOf = async (namespace: string) => {
    if (!raw.isOpen) await raw.connect()
    const keys: string[] = []
    for await (const batch of raw.scanIterator({ MATCH: `{${namespace}:*`, COUNT: 1000 }))
      keys.push(...batch)
    return keys.sort()
  }

  it('never shows one owner the movies or records of another, whatever the ids or names', async () => {
    const { driver } = await open()
    // Every owner stores the same ids and the same record key, with its own content.
    for (const owner of OWNERS) {
      const log = driver.log(owner)
      expect(await log.put(movie('id-1', `${owner} one`, '2024-01-01T10:00:00.000'))).toBe(true)
      expect(await log.put(movie('id-2', `${owner} two`, '2023-01-01T10:00:00.000'))).toBe(true)
      expect(await log.create('claim', JSON.stringify(owner), 60_000)).toBe(true)
    }
    for (const owner of OWNERS) {
      const log = driver.log(owner)
      const listed = await log.listAfter(undefined, Infinity)
      expect(listed.map((m) => m.title)).toEqual([`${owner} one`, `${owner} two`])
      const byDate = await log.listByDate(
        { descending: false, from: '0000-01-01T00:00:00.000', to: '9999-12-31T23:59:59.999' },
        10,
      )
      expect(byDate.map((m) => m.title)).toEqual([`${owner} two`, `${owner} one`])
      expect((await log.get('id-1'))?.title).toBe(`${owner} one`)
      expect(await log.read('claim')).toBe(JSON.stringify(owner))
    }
    // Unencoded, alice's record 'x}:record:claim' would be the claim of 'alice}:record:x'.
    expect(await driver.log('alice').create('x}:record:claim', 'alice', 60_000)).toBe(true)
    expect(await driver.log('alice}:record:x').read('claim')).toBe(
      JSON.stringify('alice}:record:x'),
    )
    // One owner's compare-and-set never reaches another's movie of the same id.
    const [alice, alice2] = [driver.log('alice'), driver.log('alice2')]
    const theirs = (await alice2.get('id-1')) as Movie
    expect(await alice.replace(theirs, { ...theirs, title: 'taken' })).toBe(false)
    expect(await alice.remove(theirs)).toBe(false)
    expect(await alice2.get('id-1')).toEqual(theirs)
  })

  it('keeps every key of one log under one hash tag: one slot, as Redis Cluster computes it', async () => {
    const { driver, namespace } = await open()
    for (const owner of OWNERS) {
      const log = driver.log(owner)
      await log.put(movie(randomUUID(), 'Slot'))
      const [first] = await log.listAfter(undefined, 1)
      await log.replace(first as Movie, { ...(first as Movie), title: 'Slot, edited' })
      await log.create(randomUUID(), 'record', 60_000)
    }
    const keys = await keysOf(namespace)
    for (const owner of OWNERS) {
      const tag = `{${namespace}:${encodeOwner(owner)}}`
      const own = keys.filter((key) => key.startsWith(`${tag}:`))
      // A movie, ids, dates, changes, the history, a record and the set of records; and search
      // and statistics' (issue 39): the words "slot" and "edited", the words, the counters, the
      // links, the link's screenings and the ids counted; each word's movies by date and in the
      // order added (search pages), and the ids whose words are in those.
      expect(own).toHaveLength(19)
      // Redis hashes the text from the first '{' to the next '}': exactly the tag's.
      expect(tag.slice(1, -1)).not.toMatch(/[{}]/)
    }
    expect(keys).toHaveLength(19 * OWNERS.length)
    expect(await tagsBySlot(keys, namespace)).toHaveLength(OWNERS.length)
  })

  it('drops one owner: its movies, indexes and records, every key of it, and nothing else', async () => {
    const { driver, namespace } = await open()
    const [alice, alice2] = [driver.log('alice'), driver.log('alice2')]
    // More than one batch of the drop script.
    for (let n = 0; n < 1200; n++) await alice.put(movie(`id-${String(n).padStart(4, '0')}`, 'A'))
    for (let n = 0; n < 600; n++) await alice.create(`key-${n}`, 'value', 60_000)
    await alice2.put(movie('id-0000', 'B'))
    await alice2.create('key-0', 'value', 60_000)
    const before = (await keysOf(namespace)).filter((key) => !key.includes(':alice}'))
    await driver.drop('alice')
    expect(await keysOf(namespace)).toEqual(before)
    expect(await alice.listAfter(undefined, Infinity)).toEqual([])
    expect(await alice.read('key-0')).toBeUndefined()
    expect((await alice2.listAfter(undefined, Infinity)).map((m) => m.title)).toEqual(['B'])
    expect(await alice2.read('key-0')).toBe('value')
  })

  it('lists owners from a set of their own, {<ns>}:owners, written before a first movie and emptied by drops', async () => {
    const { driver, namespace } = await open()
    const named = OWNERS.filter((owner) => owner !== '' && !owner.includes('\ud800'))
    for (const owner of [...named, '']) await driver.log(owner).put(movie(randomUUID(), owner))
    if (!raw.isOpen) await raw.connect()
    const set = `{${namespace}}:owners`
    // Its own hash tag, the namespace alone: no owner's keys share it.
    expect(await raw.zRange(set, 0, -1)).toEqual([...named].sort(byBytes))
    expect(await driver.owners()).toEqual([...named].sort(byBytes))
    for (const owner of [...named, '']) await driver.drop(owner)
    expect(await raw.exists(set)).toBe(0)
    expect(await keysOf(namespace)).toEqual([])
  })

  it('stores no first movie of an owner it could not list first', async () => {
    const namespace = `test-${randomUUID()}`
    const client = createClient({ url }) as unknown as RedisClient
    let refuse = true
    // The client as it is, but for one ZADD that fails as a Redis out of memory would.
    const failing = new Proxy(client, {
      get: (target, name, receiver) => {
        const value = Reflect.get(target, name, receiver)
        if (name === 'zAdd' && refuse) {
          return async () => {
            refuse = false
            throw new Error('OOM command not allowed when used memory > maxmemory')
          }
        }
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const driver = redisDriverOver(failing, { namespace, connectTimeoutMs: 2000 })
    opened.push(driver)
    try {
      const first = movie(randomUUID(), 'First')
      await expect(driver.log('alice').put(first)).rejects.toThrow(/OOM/)
      expect(await driver.log('alice').get(first.id)).toBeUndefined()
      expect(await driver.log('alice').put(first)).toBe(true)
      expect(await driver.owners()).toEqual(['alice'])
    } finally {
      await driver.drop('alice')
      await client.close()
    }
  })

  it('never serves a movie cached before a drop: the same id stored again is read anew', async () => {
    const { driver, namespace } = await open()
    const { driver: other } = await open(namespace)
    await driver.log('alice').put(movie('same-id', 'Before'))
    expect((await other.log('alice').listAfter(undefined, 10))[0]?.title).toBe('Before')
    await driver.drop('alice')
    await driver.log('alice').put(movie('same-id', 'After'))
    expect((await other.log('alice').listAfter(undefined, 10))[0]?.title).toBe('After')
  })
})

const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))

// The hash tags of `keys`, each checked to put all its keys in one slot, as a cluster-enabled
// redis-server of our own computes it (the shared one is not in cluster mode, and CLUSTER
// KEYSLOT needs it). Without redis-server, the tag text alone says it.
const folder = tempFolders()
async function tagsBySlot(keys: string[], namespace: string): Promise<string[]> {
  const tagOf = (key: string) => key.slice(0, key.indexOf('}') + 1)
  if (missing('redis-server')) return [...new Set(keys.map(tagOf))]
  const redis = await startPrivateClusterNode(folder('movie-log-cluster-'))
  const client = createClient({ url: redis.url })
  try {
    await client.connect()
    const slots = new Map<string, number>()
    for (const key of keys) {
      const slot = Number(await client.sendCommand(['CLUSTER', 'KEYSLOT', key]))
      const tag = tagOf(key)
      expect(tag.startsWith(`{${namespace}:`)).toBe(true)
      // Every key of a tag in the slot of the tag's first key.
      expect(slots.get(tag) ?? slot).toBe(slot)
      slots.set(tag, slot)
    }
    return [...slots.keys()]
  } finally {
    await client.close()
    await stop(redis)
  }
}
