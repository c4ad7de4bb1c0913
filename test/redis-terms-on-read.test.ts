import {
  createMovieLog,
  createMovieLogs,
  importMovies,
  type Movie,
  registerStoreOpener,
} from 'movie-log'
import { afterAll, expect, it } from 'vitest'
import { openRedisDriver } from '../src/drivers/redis/driver'
import { SCRIPTS } from '../src/drivers/redis/lua'
import { expectOthersAddsCountedIn, failingCountIn, threeRows } from './_count-in'
import { aMovie } from './_movies'
import { redisSuite } from './_redis-suite'
import { describeWith } from './_services'
import { addCorpus, expectedStats } from './_store-suite-search'

// Issue 36: on Redis an add leaves its search and statistics terms to the next search or count
// (as memory and SQLite do), most of what an add's script did; its id waits in `pending`, and
// the read counts the pending movies in before it answers.
const url = process.env.REDIS_URL as string

describeWith('REDIS_URL', 'Redis terms counted on read', () => {
  const suite = redisSuite(url)
  const logs: ReturnType<typeof createMovieLog>[] = []
  // After the suite's own afterAll is registered: hooks after run last first, so the logs
  // close before their namespaces are dropped.
  afterAll(async () => {
    await Promise.all(logs.map((log) => log.close()))
  })
  const aDiary = () => {
    const namespace = suite.namespace('terms')
    const tag = `{${namespace}:}`
    const open = () => {
      const log = createMovieLog(url, { namespace })
      logs.push(log)
      return log
    }
    const key = (name: string) => `${tag}:${name}`
    return { namespace, tag, open, key }
  }
  const connected = suite.connected

  it('leaves an add its terms to the next read, which counts them in once', async () => {
    const diary = aDiary()
    const log = diary.open()
    const heat = await log.addMovie(aMovie())
    const ran = await log.addMovie(aMovie({ title: 'Ran', notes: 'Castle burning.' }))
    const redis = await connected()
    expect((await redis.sMembers(diary.key('pending'))).sort()).toEqual([heat.id, ran.id].sort())
    expect(await redis.zCard(diary.key('words'))).toBe(0)
    expect(await redis.exists(diary.key('tallies'))).toBe(0)

    expect((await log.listMovies({ q: 'castle', limit: 10 })).movies).toEqual([ran])
    expect(await redis.sCard(diary.key('pending'))).toBe(0)
    expect((await redis.sMembers(diary.key('counted'))).sort()).toEqual([heat.id, ran.id].sort())
    expect(await redis.zCard(diary.key('words'))).toBeGreaterThan(0)
    // Counting in is no edit: the history holds the two adds alone.
    expect(await redis.xLen(diary.key('history'))).toBe(2)

    // An edit counts its movie at once; a delete of a pending movie takes it out of pending.
    const alien = await log.addMovie(aMovie({ title: 'Alien' }))
    const brazil = await log.addMovie(aMovie({ title: 'Brazil' }))
    await log.updateMovie(alien.id, { title: 'Aliens' })
    await log.deleteMovie(brazil.id)
    expect(await redis.sMembers(diary.key('pending'))).toEqual([])
    expect(await redis.sIsMember(diary.key('counted'), alien.id)).toBe(1)
    await log.updateMovie(heat.id, { notes: 'The diner scene.' })
    await log.deleteMovie(ran.id)
    const left = [
      { ...heat, notes: 'The diner scene.' },
      { ...alien, title: 'Aliens' },
    ]
    expect(await log.stats()).toEqual(expectedStats(left as never))
    expect((await log.listMovies({ q: 'diner', limit: 10 })).movies.map((m) => m.id)).toEqual([
      heat.id,
    ])
    expect((await log.listMovies({ q: 'castle', limit: 10 })).movies).toEqual([])
    expect((await log.listMovies({ q: 'alien', limit: 10 })).movies.map((m) => m.title)).toEqual([
      'Aliens',
    ])
  })

  it("counts in another process's adds before this one's search or count", async () => {
    const diary = aDiary()
    const [writer, reader] = [diary.open(), diary.open()]
    await expectOthersAddsCountedIn(writer, reader)
  })

  it('answers a read while another writer adds, every add made before it counted', async () => {
    const diary = aDiary()
    const [writer, reader] = [diary.open(), diary.open()]
    const before = await Promise.all(
      Array.from({ length: 30 }, (_, n) => writer.addMovie(aMovie({ title: `Heat ${n}` }))),
    )
    // Adds go on during the reads: each read has every add answered before it asked.
    let adding = true
    const meanwhile = (async () => {
      let n = 0
      while (adding) await writer.addMovie(aMovie({ title: `Later ${n++}` }))
    })()
    try {
      for (let round = 0; round < 5; round++) {
        const known = await writer.addMovie(aMovie({ title: `Known ${round}` }))
        const found = await reader.listMovies({ q: 'known', limit: 100 })
        expect(found.movies.map((m) => m.id)).toContain(known.id)
        expect((await reader.stats()).total).toBeGreaterThanOrEqual(before.length + round + 1)
      }
    } finally {
      adding = false
      await meanwhile
    }
    const redis = await connected()
    const both = await redis.sInter([diary.key('pending'), diary.key('counted')])
    expect(both).toEqual([])
  })

  it('counts each add once while two readers count in at once and a writer adds', async () => {
    const diary = aDiary()
    const [writer, one, other] = [diary.open(), diary.open(), diary.open()]
    const added: Movie[] = []
    let adding = true
    const meanwhile = (async () => {
      for (let n = 0; adding; n++) {
        const batch = Array.from({ length: 20 }, (_, k) =>
          writer.addMovie(aMovie({ title: `Heat ${n} ${k}`, releaseYear: 1980 + k })),
        )
        added.push(...(await Promise.all(batch)))
      }
    })()
    try {
      for (let round = 0; round < 5; round++) {
        await Promise.all([
          one.stats(),
          other.stats(),
          one.listMovies({ q: 'heat', limit: 5 }),
          other.listMovies({ q: 'heat', sort: 'screenedDate', limit: 5 }),
        ])
      }
    } finally {
      adding = false
      await meanwhile
    }
    expect(await one.stats()).toEqual(expectedStats(added))
    expect(await other.stats()).toEqual(expectedStats(added))
    const redis = await connected()
    expect(await redis.sInter([diary.key('pending'), diary.key('counted')])).toEqual([])
    expect(await redis.sCard(diary.key('counted'))).toBe(added.length)
  })

  it("scans for an older movie-log's movies past the pending ones, which it leaves to be counted", async () => {
    const diary = aDiary()
    const redis = await connected()
    const [ids, counted, pending] = ['ids', 'counted', 'pending'].map(diary.key)
    await redis.zAdd(
      ids as string,
      ['a', 'b', 'c', 'd'].map((value) => ({ score: 0, value })),
    )
    await redis.sAdd(counted as string, 'a')
    await redis.sAdd(pending as string, ['b', 'd'])
    const keys = [ids, counted, pending] as string[]
    expect(await redis.eval(SCRIPTS.UNCOUNTED, { keys, arguments: ['10'] })).toEqual(['c'])
    await redis.del(keys)
  })

  it('counts in a backlog of more than one batch (500) before a count', async () => {
    const diary = aDiary()
    const log = diary.open()
    const added = await Promise.all(
      Array.from({ length: 1200 }, (_, n) =>
        log.addMovie(aMovie({ title: `Heat ${n}`, releaseYear: 1950 + (n % 70) })),
      ),
    )
    const redis = await connected()
    expect(await redis.sCard(diary.key('pending'))).toBe(1200)
    expect(await log.stats()).toEqual(expectedStats(added))
    expect(await redis.sCard(diary.key('pending'))).toBe(0)
  })

  it("counts in its own backlog a batch per store call, each with a timeout of its own, and never another's (issue 61)", async () => {
    // Counted inside the read's one call, 100,000 adds made its first search a 503.
    const namespace = suite.namespace('backlog')
    const scheme = `test-redis-backlog-${namespace}`
    const calls: string[] = []
    registerStoreOpener({
      schemes: [scheme],
      remote: true,
      open: async (_url, options) => {
        const driver = await openRedisDriver(url, options)
        return {
          ...driver,
          log: (owner) => {
            const log = driver.log(owner)
            const { countPending, searchPage } = log
            return {
              ...log,
              countPending:
                countPending &&
                (async () => {
                  const left = await countPending()
                  calls.push(`${owner} countPending ${left}`)
                  return left
                }),
              searchPage: async (...args) => {
                calls.push(`${owner} searchPage`)
                return searchPage?.(...args)
              },
            }
          },
        }
      },
    })
    const logs = createMovieLogs(`${scheme}://`, { namespace })
    try {
      const [alice, bob] = [logs.of('alice'), logs.of('bob')]
      for (let n = 0; n < 1200; n += 100) {
        await Promise.all(
          Array.from({ length: 100 }, (_, k) =>
            alice.addMovie(aMovie({ title: `Burst ${n + k}` })),
          ),
        )
      }
      await bob.listMovies({ q: 'burst' })
      expect((await alice.listMovies({ q: 'burst', limit: 5 })).movies).toHaveLength(5)
      // 1,200 waiting: 700 left after the first batch, 200 after the second, none after the third.
      expect(calls).toEqual([
        'bob countPending 0',
        'bob searchPage',
        'alice countPending 700',
        'alice countPending 200',
        'alice countPending 0',
        'alice searchPage',
      ])
    } finally {
      await logs.close()
      const driver = await openRedisDriver(url, { namespace, connectTimeoutMs: 1000 })
      for (const owner of ['alice', 'bob']) await driver.drop(owner)
      await driver.close()
    }
  })

  it('leaves nothing to count after an import', async () => {
    const diary = aDiary()
    const log = diary.open()
    const rows = Array.from({ length: 150 }, (_, n) => ({
      line: n + 1,
      movie: aMovie({ title: `Heat ${n}` }),
    }))
    expect((await importMovies(log, rows)).added).toBe(150)
    expect(await (await connected()).sCard(diary.key('pending'))).toBe(0)
  })

  it('counts the movies an older movie-log wrote before search, once, pending ones too', async () => {
    const diary = aDiary()
    const log = diary.open()
    const added = await addCorpus(log)
    // As a version before search left the log: movies and their indexes, no terms at all.
    const redis = await connected()
    const older = [diary.key('pending'), diary.key('words'), diary.key('tallies')]
    older.push(diary.key('links'), diary.key('counted'), diary.key('paged'))
    for await (const batch of redis.scanIterator({ MATCH: `${diary.tag}:w[dio]*`, COUNT: 1000 }))
      older.push(...batch)
    for await (const batch of redis.scanIterator({ MATCH: `${diary.tag}:seen:*`, COUNT: 1000 }))
      older.push(...batch)
    await redis.del(older)
    // And one movie added since, by this version: pending.
    const later = diary.open()
    const fourth = await later.addMovie(
      aMovie({ title: 'Heat', screenedDate: '2024-06-01T12:00:00.000' }),
    )
    expect(await redis.sCard(diary.key('pending'))).toBe(1)

    expect(await later.stats()).toEqual(expectedStats([...added, fourth]))
    expect(await redis.sCard(diary.key('counted'))).toBe(added.length + 1)
    expect(await redis.sCard(diary.key('pending'))).toBe(0)
    const heats = await later.listMovies({ q: 'heat', sort: 'screenedDate', limit: 100 })
    const expected = [...added, fourth].filter((m) => /\bheat/i.test(`${m.title} ${m.notes}`))
    expect(heats.movies.map((m) => m.id).sort()).toEqual(expected.map((m) => m.id).sort())
    expect(await redis.sCard(diary.key('paged'))).toBe(added.length + 1)
  })

  it('reports an import whose counting in failed, and leaves the count to the next read', async () => {
    const diary = aDiary()
    const driver = await openRedisDriver(url, {
      namespace: diary.namespace,
      connectTimeoutMs: 1000,
    })
    const failing = failingCountIn(driver)
    const log = createMovieLog({ kind: 'redis', remote: true, open: async () => failing })
    logs.push(log)
    const rows = threeRows()
    expect((await importMovies(log, rows)).added).toBe(3)
    const redis = await connected()
    expect(await redis.sCard(diary.key('pending'))).toBe(3)
    expect((await log.listMovies({ q: 'alien', limit: 10 })).movies.map((m) => m.title)).toEqual([
      'Alien',
    ])
    expect(await redis.sCard(diary.key('pending'))).toBe(0)
  })
})
