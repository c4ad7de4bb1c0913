/**
 * Adds and pages on one Redis and on a Redis Cluster (3 masters, 3 replicas on loopback), with
 * and without the wait for a replica after each write: `createMovieLogs(url)` behind the web
 * handler, in process, 64 owners (on the cluster, spread over the 3 masters), 32 requests at
 * once (and 300 adds one at a time), each figure the median of BENCH_CLUSTER_ROUNDS (3) rounds in alternating order.
 * `npm run bench:cluster`; `npm run bench` runs it last. BENCH_CLUSTER_ADDS (2000),
 * BENCH_CLUSTER_PAGES (2000).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { toWebHandler } from '../adapters/web'
import { createMovieLogs } from '../src/create'
import { startPrivateRedis, stop } from '../test/_processes'
import { startRedisCluster } from '../test/_redis-cluster'
import { median } from './median'
import { MOVIE } from './seed'

const ADDS = Number(process.env.BENCH_CLUSTER_ADDS ?? 2000)
const PAGES = Number(process.env.BENCH_CLUSTER_PAGES ?? 2000)
const OWNERS = 64
const CONCURRENCY = 32
const SOLO_ADDS = 300
const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 3)

/** One store's figures. */
export interface ClusterRow {
  store: string
  addsPerSecond: number
  addMedianMs: number
  pagesPerSecond: number
  pageMedianMs: number
  /** One add at a time: what the wait for a replica adds to an add's latency, without queueing. */
  soloAddMedianMs: number
}

/** Runs the four targets, each on a fresh namespace; `log` prints progress. */
export async function clusterRun(log: (line: string) => void = console.log): Promise<ClusterRow[]> {
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-bench-cluster-'))
  const master = await startPrivateRedis(undefined, ['--repl-diskless-sync-delay', '0'])
  // In the run's folder: a replica writes the copy it receives to disk.
  const replica = await startPrivateRedis(undefined, [
    '--replicaof',
    '127.0.0.1',
    String(master.port),
    '--dir',
    folder,
  ])
  await replica.waitForLine(/MASTER <-> REPLICA sync: Finished with success/)
  const cluster = await startRedisCluster(folder)
  const rows: ClusterRow[] = []
  try {
    const targets: [string, string][] = [
      ['one Redis', master.url],
      ['one Redis, ?wait=1 (its replica)', `${master.url}?wait=1`],
      ['cluster, ?wait=0', `${cluster.url}?wait=0`],
      ['cluster (waits for 1 replica)', cluster.url],
    ]
    // Rounds in alternating order, the median of each figure: a shared machine drifts.
    const rounds = new Map<string, ClusterRow[]>()
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...targets].reverse() : targets
      for (const [store, url] of order) {
        const row = await measure(store, url)
        log(`[cluster] round ${round + 1}: ${JSON.stringify(row)}`)
        rounds.set(store, [...(rounds.get(store) ?? []), row])
      }
    }
    for (const [store] of targets) {
      const all = rounds.get(store) ?? []
      const mid = (pick: (row: ClusterRow) => number) => median(all.map(pick))
      rows.push({
        store,
        addsPerSecond: Math.round(mid((r) => r.addsPerSecond)),
        addMedianMs: Number(mid((r) => r.addMedianMs).toFixed(2)),
        pagesPerSecond: Math.round(mid((r) => r.pagesPerSecond)),
        pageMedianMs: Number(mid((r) => r.pageMedianMs).toFixed(2)),
        soloAddMedianMs: Number(mid((r) => r.soloAddMedianMs).toFixed(2)),
      })
    }
  } finally {
    await cluster.stop()
    await stop(replica, 'SIGKILL')
    await stop(master, 'SIGKILL')
    rmSync(folder, { recursive: true, force: true })
  }
  return rows
}

async function measure(store: string, url: string): Promise<ClusterRow> {
  const namespace = `bench-${randomUUID()}`
  const logs = createMovieLogs(url, { namespace })
  const handle = toWebHandler(logs, {
    owner: (request) => request.headers.get('x-owner') ?? undefined,
  })
  const request = async (n: number, init?: RequestInit) => {
    const started = performance.now()
    const response = await handle(
      new Request(`http://bench.test/movies${init ? '' : '?limit=50'}`, {
        ...init,
        headers: { 'content-type': 'application/json', 'x-owner': `owner-${n % OWNERS}` },
      }),
    )
    await response.arrayBuffer()
    if (response.status >= 300) throw new Error(`${store}: ${response.status}`)
    return performance.now() - started
  }
  const body = JSON.stringify(MOVIE)
  const run = async (
    count: number,
    one: (n: number) => Promise<number>,
    concurrency = CONCURRENCY,
  ) => {
    const times: number[] = []
    let next = 0
    const started = performance.now()
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let n = next++; n < count; n = next++) times.push(await one(n))
      }),
    )
    return { perSecond: count / ((performance.now() - started) / 1000), median: median(times) }
  }
  try {
    // Warm: every owner's first add and first page, and the connections to every master.
    await run(OWNERS * 2, (n) => request(n, { method: 'POST', body }))
    const adds = await run(ADDS, (n) => request(n, { method: 'POST', body }))
    await run(OWNERS * 2, (n) => request(n))
    const pages = await run(PAGES, (n) => request(n))
    const solo = await run(SOLO_ADDS, (n) => request(n, { method: 'POST', body }), 1)
    return {
      store,
      addsPerSecond: Math.round(adds.perSecond),
      addMedianMs: Number(adds.median.toFixed(2)),
      pagesPerSecond: Math.round(pages.perSecond),
      pageMedianMs: Number(pages.median.toFixed(2)),
      soloAddMedianMs: Number(solo.median.toFixed(2)),
    }
  } finally {
    for (let n = 0; n < OWNERS; n++) await logs.drop(`owner-${n}`)
    await logs.close()
  }
}

/** The figures as a Markdown table. */
export function clusterReport(rows: ClusterRow[]): string {
  return `| store | adds/s | add, median ms | pages of 50/s | page, median ms | one add at a time, median ms |
|---|---|---|---|---|---|
${rows.map((r) => `| ${r.store} | ${r.addsPerSecond} | ${r.addMedianMs} | ${r.pagesPerSecond} | ${r.pageMedianMs} | ${r.soloAddMedianMs} |`).join('\n')}`
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(clusterReport(await clusterRun()))
}
