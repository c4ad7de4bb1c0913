/**
 * Issue 27's figures for many owners on one store, in process:
 * (a) pages of 50 of one owner (200 movies) beside 1 and then BENCH_OWNERS (10,000) other owners
 *     of 3 movies each, on memory, SQLite, Redis and PostgreSQL: each page the median of 100;
 * (b) 20,000 requests through `toWebHandler(logs, { owner })`, each naming another owner, on
 *     memory and on Redis by URL: heap growth after GC, and the listeners on the Redis client.
 * `npm run bench:owners`; REDIS_URL and POSTGRES_URL add their stores (the run's namespaces are
 * deleted after); BENCH_STORES=SQLite,Redis measures the pages of these stores only.
 */
import { randomUUID } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toWebHandler } from '../adapters/web'
import type { ListMoviesOptions, MovieLogs } from '../src'
import { createMovieLogs } from '../src/create'
import { median } from './median'
import { seededMovie } from './seed'
import { clearSqlNamespace, seedSqlOwners } from './seed-tables'

const OTHERS = Number(process.env.BENCH_OWNERS ?? 10_000)
const REQUESTS = 20_000
const OWN_MOVIES = 200
const OTHER_MOVIES = 3
const TARGET = 'the owner measured'
const log = (line: string) => console.log(`[owners] ${line}`)

// The Redis client a store URL opens is the driver's own: to count its listeners, the run
// remembers every node-redis client that gets one (a bench's instrument, never in src/).
const redisClients = new Set<EventEmitter>()
for (const method of ['on', 'addListener', 'prependListener', 'once'] as const) {
  const original = EventEmitter.prototype[method]
  EventEmitter.prototype[method] = function (this: EventEmitter, ...args: never[]) {
    if (isRedisClient(this)) redisClients.add(this)
    return (original as (...a: never[]) => EventEmitter).apply(this, args)
  }
}

function isRedisClient(emitter: object): boolean {
  for (let proto = Object.getPrototypeOf(emitter); proto; proto = Object.getPrototypeOf(proto)) {
    if (proto.constructor?.name === 'RedisClient') return true
  }
  return false
}

const listenerCounts = () =>
  [...redisClients].map((client) =>
    Object.fromEntries(client.eventNames().map((e) => [String(e), client.listenerCount(e)])),
  )

async function inBatches(count: number, work: (n: number) => Promise<unknown>, size = 200) {
  for (let start = 0; start < count; start += size) {
    await Promise.all(
      Array.from({ length: Math.min(size, count - start) }, (_, n) => work(start + n)),
    )
  }
}

interface Store {
  name: string
  url: string
  /** Puts movies for these owners in, the fastest way the store allows. */
  seed(logs: MovieLogs, namespace: string, owners: [string, number][]): Promise<void>
  clean(logs: MovieLogs, namespace: string, owners: string[]): Promise<void>
}

const byAdds: Store['seed'] = async (logs, _namespace, owners) => {
  const each = owners.flatMap(([owner, count]) => Array.from({ length: count }, () => owner))
  await inBatches(each.length, (n) => logs.of(each[n] as string).addMovie(seededMovie(n)))
}

const folder = mkdtempSync(join(tmpdir(), 'movie-log-owners-bench-'))
const stores: Store[] = [
  { name: 'memory', url: 'memory://', seed: byAdds, clean: async () => {} },
  {
    name: 'SQLite',
    url: `sqlite://${join(folder, 'movies.sqlite')}`,
    seed: (_logs, namespace, owners) => seedSqlOwners(stores[1]?.url as string, namespace, owners),
    clean: async () => {},
  },
]
if (process.env.REDIS_URL) {
  stores.push({
    name: 'Redis',
    url: process.env.REDIS_URL,
    seed: byAdds,
    clean: (logs, _namespace, owners) =>
      inBatches(owners.length, (n) => logs.drop(owners[n] as string)),
  })
}
if (process.env.POSTGRES_URL) {
  const url = process.env.POSTGRES_URL
  stores.push({
    name: 'PostgreSQL',
    url,
    seed: (_logs, namespace, owners) => seedSqlOwners(url, namespace, owners),
    clean: (_logs, namespace) => clearSqlNamespace(url, namespace),
  })
}

/** The median ms of each page of the measured owner. */
async function pages(logs: MovieLogs): Promise<Record<string, string>> {
  const owner = logs.of(TARGET)
  const second = await owner.listMovies({ limit: 50 })
  const third = await owner.listMovies({ limit: 50, cursor: second.nextCursor })
  const asked: Record<string, ListMoviesOptions> = {
    firstPageMs: { limit: 50 },
    thirdPageMs: { limit: 50, cursor: third.nextCursor },
    datePageMs: { sort: '-screenedDate', limit: 50 },
  }
  const row: Record<string, string> = {}
  for (const [name, options] of Object.entries(asked)) {
    const time = async () => {
      const start = performance.now()
      const page = await owner.listMovies(options)
      if (page.movies.length !== 50) throw new Error(`${name}: ${page.movies.length} movies`)
      return performance.now() - start
    }
    for (let n = 0; n < 5; n++) await time()
    const times: number[] = []
    for (let n = 0; n < 100; n++) times.push(await time())
    row[name] = median(times).toFixed(3)
  }
  return row
}

/**
 * The median ms of the first call of an owner never seen before (a page of none), and of
 * dropping an owner of 3 movies (10 of the others, gone after).
 */
async function firstCallAndDrop(logs: MovieLogs, others: string[]) {
  const timed = async (work: () => Promise<unknown>) => {
    const start = performance.now()
    await work()
    return performance.now() - start
  }
  const firsts: number[] = []
  for (let n = 0; n < 30; n++) {
    firsts.push(await timed(() => logs.of(`never seen ${n}`).listMovies({ limit: 50 })))
  }
  const drops: number[] = []
  for (const owner of others.slice(-10)) drops.push(await timed(() => logs.drop(owner)))
  return { newOwnerFirstPageMs: median(firsts).toFixed(3), dropOwnerMs: median(drops).toFixed(3) }
}

async function pagesBesideOwners(store: Store): Promise<void> {
  const namespace = `bench-owners-${randomUUID()}`
  const logs = createMovieLogs(store.url, { namespace })
  const others = Array.from({ length: OTHERS }, (_, n) => `other ${n}`)
  try {
    await store.seed(logs, namespace, [
      [TARGET, OWN_MOVIES],
      [others[0] as string, OTHER_MOVIES],
    ])
    log(`${store.name} beside 1 owner: ${JSON.stringify(await pages(logs))}`)
    const start = performance.now()
    await store.seed(
      logs,
      namespace,
      others.slice(1).map((owner) => [owner, OTHER_MOVIES]),
    )
    const seeded = ((performance.now() - start) / 1000).toFixed(1)
    log(
      `${store.name} beside ${OTHERS} owners: ${JSON.stringify(await pages(logs))} (seeded in ${seeded} s)`,
    )
    log(
      `${store.name} beside ${OTHERS} owners: ${JSON.stringify(await firstCallAndDrop(logs, others))}`,
    )
  } finally {
    await store.clean(logs, namespace, [TARGET, ...others])
    await logs.close()
  }
}

const gc = (globalThis as { gc?: () => void }).gc
const heapAfterGc = () => {
  gc?.()
  gc?.()
  return process.memoryUsage().heapUsed
}

async function manyRequests(name: string, url: string): Promise<void> {
  const logs = createMovieLogs(url, { namespace: `bench-requests-${randomUUID()}` })
  const handle = toWebHandler(logs, {
    owner: (request) => request.headers.get('x-user') ?? undefined,
  })
  const request = async (n: number) => {
    const response = await handle(
      new Request('http://bench.test/movies?limit=50', { headers: { 'x-user': `user ${n}` } }),
    )
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`${response.status}`)
  }
  redisClients.clear()
  try {
    // Warmed up on owners of their own, so that what stays after is what the owners cost.
    await inBatches(1000, (n) => request(REQUESTS + n), 100)
    const before = heapAfterGc()
    const listenersBefore = listenerCounts()
    const start = performance.now()
    await inBatches(REQUESTS, request, 100)
    const seconds = ((performance.now() - start) / 1000).toFixed(1)
    const grown = ((heapAfterGc() - before) / 2 ** 20).toFixed(2)
    log(
      `${name}: ${REQUESTS} requests, each another owner, in ${seconds} s: heap after GC grew ${grown} MiB; ` +
        `listeners on the Redis client before ${JSON.stringify(listenersBefore)}, after ${JSON.stringify(listenerCounts())}`,
    )
  } finally {
    await logs.close()
  }
}

// BENCH_STORES=Redis,SQLite: only these stores' pages.
const only = process.env.BENCH_STORES?.split(',')
if (!gc) log('run with node --expose-gc for heap figures after GC')
try {
  for (const store of stores) if (!only || only.includes(store.name)) await pagesBesideOwners(store)
  await manyRequests('memory', 'memory://')
  if (process.env.REDIS_URL) await manyRequests('Redis', process.env.REDIS_URL)
} finally {
  rmSync(folder, { recursive: true, force: true })
}
