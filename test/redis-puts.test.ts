import { randomUUID } from 'node:crypto'
import { createClient } from '@keyv/redis'
import { afterAll, describe, expect, it } from 'vitest'
import type { StoreDriver } from '../src/core/driver'
import type { Movie } from '../src/core/movie'
import { parseWordQuery, type WordQuery } from '../src/core/words'
import type { RedisClient } from '../src/drivers/redis/connect'
import { redisDriverOver } from '../src/drivers/redis/driver'
import { redisLogKeys } from '../src/drivers/redis/keys'
import { createRedisPuts } from '../src/drivers/redis/puts'
import { aMovie } from './_movies'
import { describeWith } from './_services'

// Adds that arrive together go to Redis as one script call per owner (redis/puts.ts), each
// answered as if it had been put alone.
const url = process.env.REDIS_URL as string

describeWith('REDIS_URL', 'Redis driver: adds of one turn stored together', () => {
  const cleanups: (() => Promise<unknown>)[] = []
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
  })
  const movie = (title: string, id: string = randomUUID()): Movie =>
    Object.freeze({ ...aMovie({ title }), notes: '', id }) as Movie

  // A driver over a client whose script calls are counted, by the owner tag of their first key,
  // and fail while `failing` says so for that tag.
  const open = async (failing: (tag: string) => boolean = () => false) => {
    const namespace = `test-${randomUUID()}`
    const client = createClient({ url }) as unknown as RedisClient
    await client.connect()
    const calls: string[] = []
    const listings: string[] = []
    const counted = new Proxy(client, {
      get: (target, name, receiver) => {
        const value = Reflect.get(target, name, receiver)
        if (name === 'zAdd') {
          return (key: string, ...rest: unknown[]) => {
            listings.push(key)
            return (value as (...all: unknown[]) => unknown).call(target, key, ...rest)
          }
        }
        if (name === 'evalSha' || name === 'eval') {
          return async (script: string, options: { keys: string[] }) => {
            const tag = (options.keys[0] ?? '').replace(/\}.*/, '}')
            calls.push(tag)
            if (failing(tag)) throw new Error('ERR Error running script: a refused batch')
            return (value as (...all: unknown[]) => unknown).call(target, script, options)
          }
        }
        return typeof value === 'function' ? value.bind(target) : value
      },
    })
    const driver: StoreDriver = redisDriverOver(counted, { namespace, connectTimeoutMs: 2000 })
    const tag = (owner: string) => redisLogKeys(namespace, owner).tag
    cleanups.push(() => client.close())
    cleanups.push(() => Promise.all(['', 'alice', 'bob'].map((owner) => driver.drop(owner))))
    return { driver, calls, listings, tag, client }
  }

  it('stores the adds of one turn in one call, each answered as if put alone', async () => {
    const { driver, calls, tag, client } = await open()
    const log = driver.log('')
    const taken = movie('Stored before')
    expect(await log.put(taken)).toBe(true)
    calls.length = 0
    const twin = movie('First of two with one id')
    const movies = Array.from({ length: 40 }, (_, at) => movie(`Movie ${at}`))
    const answers = await Promise.all([
      ...movies.map((each) => log.put(each)),
      log.put({ ...taken, title: 'Its id is taken' }),
      log.put(twin),
      log.put({ ...twin, title: 'Second of two with one id' }),
    ])
    expect(calls).toEqual([tag('')])
    expect(answers).toEqual([...movies.map(() => true), false, true, false])
    const listed = await log.listAfter(undefined, Number.POSITIVE_INFINITY)
    expect(listed.map((each) => each.title).sort()).toEqual(
      [taken, twin, ...movies].map((each) => each.title).sort(),
    )
    // Each stored movie waits in \`pending\` for its terms to be counted.
    const members = "return redis.call('SMEMBERS', KEYS[1])"
    const pending = await client.eval(members, { keys: [`${tag('')}:pending`], arguments: [] })
    expect((pending as string[]).sort()).toEqual(listed.map((each) => each.id).sort())
    // Both indexes hold every movie stored, and a search counts in the ones added pending.
    const byDate = await log.listByDate(
      { descending: false, from: '0000-01-01T00:00:00.000', to: '9999-12-31T23:59:59.999' },
      100,
    )
    expect(byDate.map((each) => each.id).sort()).toEqual(listed.map((each) => each.id).sort())
    const found = await log.search(parseWordQuery('second') as WordQuery, 10)
    expect(found.map((each) => each.title)).toEqual([])
    const firsts = await log.search(parseWordQuery('first two') as WordQuery, 10)
    expect(firsts.map((each) => each.title)).toEqual([twin.title])
    // Once the log's terms are counted, the next adds are counted in from \`pending\`.
    const later = [movie('Later one'), movie('Later two')]
    expect(await Promise.all(later.map((each) => log.put(each)))).toEqual([true, true])
    const laters = await log.search(parseWordQuery('later') as WordQuery, 10)
    expect(laters.map((each) => each.title).sort()).toEqual(['Later one', 'Later two'])
    // One history entry per movie stored, in the order they were put.
    const { changes } = await log.changesAfter(undefined, 100)
    expect(changes.map((change) => change.movie.id)).toEqual(
      [taken, ...movies, twin, ...later].map((each) => each.id),
    )
  })

  it('bounds a call at 256 movies: a turn of 600 adds is three calls, every movie stored', async () => {
    const { driver, calls, tag } = await open()
    const movies = Array.from({ length: 600 }, (_, at) => movie(`Movie ${at}`))
    expect(new Set(await Promise.all(movies.map((each) => driver.log('').put(each))))).toEqual(
      new Set([true]),
    )
    expect(calls).toEqual([tag(''), tag(''), tag('')])
    expect(await driver.log('').listAfter(undefined, 1000)).toHaveLength(600)
  })

  it('lists an owner once when its first movies come together, and stores them all', async () => {
    const { driver, calls, listings, tag } = await open()
    const movies = Array.from({ length: 5 }, (_, at) => movie(`First ${at}`))
    const answers = await Promise.all(movies.map((each) => driver.log('alice').put(each)))
    expect(answers).toEqual(movies.map(() => true))
    // Once unlisted (every movie answered 2), once again after the owner was listed, once.
    expect(calls).toEqual([tag('alice'), tag('alice')])
    expect(listings).toHaveLength(1)
    expect(await driver.owners()).toEqual(['alice'])
    expect(await driver.log('alice').listAfter(undefined, 10)).toHaveLength(5)
  })

  it("fails the adds of a call that failed and no other: the next turn's, another owner's", async () => {
    let refuse = false
    const { driver, calls, tag } = await open((owner) => refuse && owner === tag('alice'))
    await driver.log('alice').put(movie('Alice listed'))
    await driver.log('bob').put(movie('Bob listed'))
    refuse = true
    const [alice, bob] = [driver.log('alice'), driver.log('bob')]
    const theirs = [movie('Alice one'), movie('Alice two')]
    const bobs = movie('Bob one')
    const answers = await Promise.allSettled([
      ...theirs.map((each) => alice.put(each)),
      bob.put(bobs),
    ])
    expect(answers.map((answer) => answer.status)).toEqual(['rejected', 'rejected', 'fulfilled'])
    expect(String((answers[0] as PromiseRejectedResult).reason)).toMatch(/a refused batch/)
    expect(await bob.get(bobs.id)).toEqual(bobs)
    expect(await alice.get(theirs[0]?.id as string)).toBeUndefined()
    refuse = false
    calls.length = 0
    expect(await Promise.all(theirs.map((each) => alice.put(each)))).toEqual([true, true])
    expect(calls).toEqual([tag('alice')])
  })
})

// The batches alone, on a stand-in for the driver: what each put is told when parts fail.
describe('adds of one turn, on a stand-in for Redis', () => {
  const keys = redisLogKeys('stand-in', 'alice')
  const movie = (title: string): Movie =>
    Object.freeze({ ...aMovie({ title }), notes: '', id: randomUUID() }) as Movie
  const pending = (each: Movie, listed = true) => ({ keys, owner: 'alice', listed, movie: each })

  it('answers a taken id at once, and fails only the stored movies when the replica wait fails', async () => {
    const waits: string[] = []
    const put = createRedisPuts({
      run: async () => [1, 0, 1],
      changedChannel: 'changed',
      list: async () => {},
      replicated: async (key) => {
        waits.push(key)
        throw new Error('NOREPLICAS')
      },
    })
    const answers = await Promise.allSettled(
      ['a', 'b', 'c'].map((title) => put(pending(movie(title)))),
    )
    expect(
      answers.map((answer) => (answer.status === 'fulfilled' ? answer.value : 'failed')),
    ).toEqual(['failed', false, 'failed'])
    expect(waits).toEqual([keys.ids])
  })

  it('waits for no replica when nothing was stored', async () => {
    let waited = 0
    const put = createRedisPuts({
      run: async () => [0, 0],
      changedChannel: 'changed',
      list: async () => {},
      replicated: async () => waited++,
    })
    expect(await Promise.all([put(pending(movie('a'))), put(pending(movie('b')))])).toEqual([
      false,
      false,
    ])
    expect(waited).toBe(0)
  })

  it('lists a new owner once for its first movies, then puts them again as listed', async () => {
    const sent: string[] = []
    const listed: string[] = []
    const put = createRedisPuts({
      run: async (_, movieKeys, args) => {
        sent.push(args[0] as string)
        return movieKeys.slice(4).map(() => (args[0] === '1' ? 1 : 2))
      },
      changedChannel: 'changed',
      list: async (owner) => listed.push(owner),
    })
    const firsts = ['a', 'b', 'c'].map((title) => put(pending(movie(title), false)))
    expect(await Promise.all(firsts)).toEqual([true, true, true])
    expect(listed).toEqual(['alice'])
    expect(sent).toEqual(['0', '1'])
  })

  it('fails every put of a call whose answer does not fit its movies', async () => {
    const put = createRedisPuts({ run: async () => [1], changedChannel: 'c', list: async () => {} })
    const answers = await Promise.allSettled([put(pending(movie('a'))), put(pending(movie('b')))])
    expect(answers.map((answer) => answer.status)).toEqual(['rejected', 'rejected'])
  })
})
