// Issue 22: the example server on each networked store while its connections are cut at random
// moments, under a minute of mixed traffic: no crash, no 5xx but 503, and every add answered 201
// stored exactly once. A minute per store: it runs under CI=true, or with CHAOS_SECONDS set.
import { setTimeout as delay } from 'node:timers/promises'
import { createClient } from '@keyv/redis'
import type { Movie } from 'movie-log'
import { afterEach, describe, expect, it } from 'vitest'
import { addUntilCreated, assertAlive } from '../_adds'
import { createPrivatePostgres, POSTGRES_ADMIN_URL } from '../_postgres'
import { type ServerProcess, startPrivateRedis, startServerProcess, stop } from '../_processes'
import { describeWith } from '../_services'

const SECONDS = Number(process.env.CHAOS_SECONDS ?? 60)
// CHAOS_SECONDS runs it outside CI too, for a local look.
const describeChaos = process.env.CHAOS_SECONDS
  ? describe
  : (name: string, body: () => void) => describeWith('CI', name, body)
const WORKERS = 8

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A store to run the server on, and how to cut every connection to it. */
interface Chaos {
  url: string
  cut(): Promise<unknown>
}

async function redisChaos(): Promise<Chaos> {
  const redis = await startPrivateRedis()
  cleanups.push(() => stop(redis, 'SIGKILL'))
  const admin = createClient({ url: redis.url })
  admin.on('error', () => {})
  await admin.connect()
  cleanups.push(async () => admin.destroy())
  // Every client connection but this one: the server's, mid-command or idle.
  return {
    url: redis.url,
    cut: () => admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']),
  }
}

async function postgresChaos(): Promise<Chaos> {
  const postgres = await createPrivatePostgres('chaos')
  cleanups.push(() => postgres.drop())
  return { url: postgres.url, cut: () => postgres.terminate() }
}

interface Tally {
  requests: number
  statuses: Map<number, number>
  cuts: number
  added: Map<string, string>
}

/** Mixed traffic until the deadline: adds (retried until 201), pages, and reads by id. */
async function traffic(server: ServerProcess, deadline: number, tally: Tally, worker: number) {
  const count = (status: number) => {
    tally.requests++
    tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1)
  }
  const get = async (url: string) => {
    const response = await fetch(url, { signal: AbortSignal.timeout(15_000) }).catch(() => null)
    count(response?.status ?? 0)
    await response?.arrayBuffer()
  }
  for (let n = 0; Date.now() < deadline; n++) {
    assertAlive(server)
    const roll = Math.random()
    const ids = [...tally.added.values()]
    if (roll < 0.4) {
      const key = `chaos-${worker}-${n}`
      const { movie } = await addUntilCreated(server, key, { onStatus: count, backoffMs: 50 })
      tally.added.set(key, movie.id)
    } else if (roll < 0.7 || ids.length === 0) {
      await get(`${server.url}?limit=50`)
    } else {
      await get(`${server.url}/${ids[Math.floor(Math.random() * ids.length)]}`)
    }
  }
}

async function cutAtRandom(chaos: Chaos, deadline: number, tally: Tally) {
  for (;;) {
    await delay(200 + Math.random() * 2800)
    if (Date.now() >= deadline) return
    await chaos.cut()
    tally.cuts++
  }
}

describeChaos(`chaos: connections cut at random for ${SECONDS} s of traffic`, () => {
  it.each([
    ['Redis', redisChaos],
    ['PostgreSQL', postgresChaos],
  ] as const)(
    'the example server on %s: no crash, no 5xx but 503, every 201 stored once',
    async (name, makeChaos) => {
      if (name === 'PostgreSQL') expect(POSTGRES_ADMIN_URL, 'set POSTGRES_URL').toBeDefined()
      const chaos = await makeChaos()
      const server = await startServerProcess({ MOVIE_LOG_STORE: chaos.url })
      cleanups.push(() => stop(server, 'SIGKILL'))
      const tally: Tally = { requests: 0, statuses: new Map(), cuts: 0, added: new Map() }
      const deadline = Date.now() + SECONDS * 1000

      await Promise.all([
        cutAtRandom(chaos, deadline, tally),
        ...Array.from({ length: WORKERS }, (_, worker) => traffic(server, deadline, tally, worker)),
      ])
      assertAlive(server)
      const listed = ((await (await fetch(server.url)).json()) as Movie[]).map((m) => m.id)

      const figures = {
        store: name,
        seconds: SECONDS,
        cuts: tally.cuts,
        requests: tally.requests,
        created: tally.statuses.get(201) ?? 0,
        unavailable: tally.statuses.get(503) ?? 0,
        statuses: Object.fromEntries(tally.statuses),
        adds: tally.added.size,
        stored: listed.length,
      }
      console.log(`chaos ${JSON.stringify(figures)}`)

      expect(tally.cuts).toBeGreaterThan(SECONDS / 4)
      // Every answer was a success, a retry-later (409 for an add still in flight, 503), and
      // never another 5xx, a 404 for a movie answered 201, or a connection the server dropped.
      expect([...tally.statuses.keys()].filter((s) => ![200, 201, 409, 503].includes(s))).toEqual(
        [],
      )
      expect(figures.created).toBe(tally.added.size)
      expect(new Set(listed).size).toBe(listed.length)
      expect(listed.sort()).toEqual([...tally.added.values()].sort())
    },
    (SECONDS + 120) * 1000,
  )
})
