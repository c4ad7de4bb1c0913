import { randomUUID } from 'node:crypto'
import { createMovieLog } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { afterAll, expect, it } from 'vitest'
import { redisLogKeys } from '../../src/drivers/redis/keys'
import { aMovie } from '../_movies'
import { startRedisCluster, type TestCluster } from '../_redis-cluster'
import { describeWith } from '../_services'
import { tempFolders } from '../_temp'

// Issue 28: a master of a Redis Cluster killed under adds. Its replica takes over, the killed
// node comes back as a replica (as a supervisor restarts it), and the server goes on without a
// restart: 503s meanwhile, never a hang past the store timeout nor another 5xx, and every add
// retried with its Idempotency-Key ends in exactly one movie, none acknowledged lost.
const folder = tempFolders()
const STORE_TIMEOUT_MS = 2000
const ADDS = 300
const WORKERS = 4
const KILL_AFTER = 60
const RETRY_PAUSE_MS = 50
const ORIGIN = 'http://movie-log.test'

describeWith('redis-cluster', 'Redis Cluster failover', () => {
  let cluster: TestCluster | undefined
  afterAll(async () => {
    await cluster?.stop()
  })

  it('answers 503 while a killed master fails over, then serves; nothing acknowledged is lost', async () => {
    cluster = await startRedisCluster(folder('movie-log-failover-'))
    const namespace = `test-${randomUUID()}`
    const log = createMovieLog(cluster.url, { namespace, storeTimeoutMs: STORE_TIMEOUT_MS })
    const handle = toWebHandler(log)
    // The one diary's slot: every add goes to the master killed.
    const master = await cluster.masterOf(redisLogKeys(namespace, '').ids)

    const statuses = new Map<string, number>()
    const count = (what: string) => statuses.set(what, (statuses.get(what) ?? 0) + 1)
    const acknowledged = new Map<number, string>()
    let slowest = 0
    let killedAt: number | undefined
    let promotedAt: number | undefined
    let firstAddAfter: number | undefined
    let firstListAfter: number | undefined
    const unexpected: string[] = []

    const timed = async (request: Request) => {
      const started = performance.now()
      const response = await handle(request)
      const body = await response.text()
      slowest = Math.max(slowest, performance.now() - started)
      return { status: response.status, body }
    }
    const pause = () => new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS))

    let next = 0
    const adder = async () => {
      for (let n = next++; n < ADDS; n = next++) {
        const key = `failover-${n}`
        for (;;) {
          const { status, body } = await timed(
            new Request(`${ORIGIN}/movies`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'idempotency-key': key },
              body: JSON.stringify(aMovie({ title: `Failover ${n}` })),
            }),
          )
          count(`POST ${status}`)
          if (status === 201) {
            acknowledged.set(n, (JSON.parse(body) as { id: string }).id)
            if (killedAt !== undefined) firstAddAfter ??= Date.now()
            if (acknowledged.size === KILL_AFTER && killedAt === undefined) {
              killedAt = Date.now()
              await cluster?.kill(master)
            }
            break
          }
          if (status !== 503) unexpected.push(`POST ${status}: ${body}`)
          await pause()
        }
      }
    }
    let adding = true
    const lister = async () => {
      while (adding) {
        const { status, body } = await timed(new Request(`${ORIGIN}/movies?limit=20`))
        count(`GET ${status}`)
        if (status === 200 && killedAt !== undefined && firstAddAfter !== undefined)
          firstListAfter ??= Date.now()
        if (status !== 200 && status !== 503) unexpected.push(`GET ${status}: ${body}`)
        await pause()
      }
    }
    // The replica promoted, then the killed node started again: it rejoins as a replica.
    const supervisor = async () => {
      while (killedAt === undefined) await pause()
      const key = redisLogKeys(namespace, '').ids
      for (;;) {
        const now = await cluster?.masterOf(key).catch(() => undefined)
        if (now && now !== master) break
        await pause()
      }
      promotedAt = Date.now()
      await cluster?.restart(master)
    }

    const started = Date.now()
    const listing = lister()
    await Promise.all([...Array.from({ length: WORKERS }, adder), supervisor()])
    adding = false
    await listing

    const { movies } = await log.listMovies()
    const titles = movies.map((movie) => movie.title)
    const listedIds = new Set(movies.map((movie) => movie.id))
    const lost = [...acknowledged.values()].filter((id) => !listedIds.has(id))
    const figures = {
      statuses: Object.fromEntries([...statuses].sort()),
      secondsInAll: (Date.now() - started) / 1000,
      promotedAfterSeconds: ((promotedAt ?? 0) - (killedAt ?? 0)) / 1000,
      firstAddAfterKillSeconds: ((firstAddAfter ?? 0) - (killedAt ?? 0)) / 1000,
      firstListAfterKillSeconds: ((firstListAfter ?? 0) - (killedAt ?? 0)) / 1000,
      slowestRequestMs: Math.round(slowest),
      acknowledged: acknowledged.size,
      listed: movies.length,
      lost: lost.length,
    }
    console.log(`failover figures: ${JSON.stringify(figures)}`)

    expect(unexpected).toEqual([])
    expect(statuses.get('POST 503')).toBeGreaterThan(0)
    expect(acknowledged.size).toBe(ADDS)
    expect(lost).toEqual([])
    // Exactly one movie per Idempotency-Key.
    expect(movies).toHaveLength(ADDS)
    expect(new Set(titles).size).toBe(ADDS)
    // No call hangs past the store timeout: an add makes at most three (claim, movie, done).
    expect(slowest).toBeLessThan(3 * STORE_TIMEOUT_MS + 1000)
    expect(firstListAfter).toBeDefined()
    await log.close()
  }, 120_000)
})
