/**
 * `npm run bench`: movie-log's cold start beside hono's (bench/cold-start.ts), then movie-log
 * as issue 36 measured it (an h3 app mounting the built package, plain node, wrk with 32
 * connections, ratios to bare h3 in the same round; bench/targets.ts) against bare h3 (alternating solo runs, then paired runs that load both at once and
 * compare CPU time per request), then the scale run, then adds and pages on one Redis and on a
 * Redis Cluster, with and without the wait for a replica (bench/cluster.ts), then the live
 * feed: from a 201 to its event at 100 and 1,000 open feeds, and an idle feed's memory
 * (bench/live.ts); then `movie-log serve` on SQLite while `movie-log import` writes its file
 * (bench/import-stall.ts); then `movie-log catalog load` of a synthetic 1,000,000-row IMDb
 * title.basics.tsv.gz and `find` over it (bench/catalog.ts).
 * Writes bench/RESULTS.md, ending with bench/NOTES.md (what the figures mean). Settings:
 * BENCH_SECONDS (5), BENCH_ROUNDS (4), BENCH_WARMUP_SECONDS (2), BENCH_SIZES (1000,10000,100000),
 * BENCH_POSTGRES_ADMIN_URL, BENCH_PIN (1: pin to CPUs; unpinned by default), BENCH_COLD_RUNS (30), BENCH_ONLY
 * (`throughput`: the solo and paired runs alone, printed), BENCH_NODE (24: the servers' Node
 * line), BENCH_SERVE (1: `movie-log serve` from source too).
 */

import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { catalogReport, catalogRun } from './catalog'
import { type ClusterRow, clusterReport, clusterRun } from './cluster'
import { type ColdStartRow, coldStart, coldStartReport, coldStartTarget } from './cold-start'
import { hostsRun } from './hosts'
import { importStallReport, importStallRun, type StallRow } from './import-stall'
import { type LiveResult, liveReport, liveRun } from './live'
import { load, loadTool } from './load'
import { median } from './median'
import { type PairedRun, pairedRun, pairedRunsAvailable } from './paired'
import { pinning } from './pinning'
import type { Target } from './processes'
import { SCALE_PAGES, type ScaleRow, scaleRun } from './scale'
import { MOVIE, seedOverHttp } from './seed'
import { serversNode, startRound } from './targets'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
// An even number of rounds: the paired runs' starting order alternates by round.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4)
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number)
const CONNECTIONS = 32

type Method = 'GET' | 'POST'
type Samples = Record<string, Record<Method, { rps: number[]; p99: number[] }>>
type Paired = Record<string, Record<Method, PairedRun[]>>
// Where a target is bound by the server's CPU: the paired runs compare CPU costs, and SQLite's
// adds wait on the disk.
const PAIRED_TARGETS = ['movie-log memory', 'movie-log Redis']

const log = (line: string) => console.log(`[bench] ${line}`)

async function throughput(): Promise<{ samples: Samples; paired: Paired }> {
  const samples: Samples = {}
  const paired: Paired = {}
  // New server processes every round. Two launches of the same server can differ by a few
  // percent in CPU time per request for as long as they live (two copies of one server loaded
  // together: 5%, then 2%); a median over rounds of one launch each is a median over launches.
  for (let round = 1; round <= ROUNDS; round++) {
    const { targets, redisPid, stop } = await startRound(log)
    try {
      for (const target of targets) await seedOverHttp(target.url, 100)
      // GET first, on 100 movies each; POST after, since every POST adds one.
      for (const method of ['GET', 'POST'] as const) {
        await measureRound(round, method, targets, redisPid, samples, paired)
      }
    } finally {
      await stop()
    }
  }
  return { samples, paired }
}

async function measureRound(
  round: number,
  method: Method,
  targets: Target[],
  redisPid: number,
  samples: Samples,
  paired: Paired,
): Promise<void> {
  const body = method === 'POST' ? JSON.stringify(MOVIE) : undefined
  const options = { method, body, seconds: SECONDS, connections: CONNECTIONS }
  // V8 compiles what runs hot: every target runs the method once, uncounted, first.
  for (const target of targets) {
    await load(target.url, { method, body, seconds: WARMUP_SECONDS, connections: CONNECTIONS })
  }
  for (const target of targets) {
    const result = await load(target.url, options)
    samples[target.name] ??= { GET: { rps: [], p99: [] }, POST: { rps: [], p99: [] } }
    const entry = samples[target.name] as Samples[string]
    entry[method].rps.push(result.rps)
    entry[method].p99.push(result.p99Ms)
    log(
      `${method} ${target.name} round ${round}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99Ms.toFixed(2)} ms`,
    )
  }
  if (!pairedRunsAvailable) return
  const [bare] = targets as [Target]
  for (const target of targets.filter(({ name }) => PAIRED_TARGETS.includes(name))) {
    // The Redis log's cost includes the work it hands to redis-server.
    const helpers = target.name === 'movie-log Redis' ? [redisPid] : []
    // Whose load starts first alternates by round, so neither server always gets the head start.
    const run = await pairedRun(bare, target, options, helpers, round % 2 === 0)
    paired[target.name] ??= { GET: [], POST: [] }
    paired[target.name]?.[method].push(run)
    log(
      `${method} paired ${target.name} round ${round}: ${run.targetUs.toFixed(1)} µs per request, bare h3 ${run.bareUs.toFixed(1)} µs`,
    )
  }
}

/** The throughput tables: medians and ratios to bare h3, and every round's. */
function throughputTables(samples: Samples) {
  const bare = samples['bare h3'] as Samples[string]
  // Each round's req/s over bare h3's in the same round, run just before it: the machine's
  // speed drifts between rounds, and a ratio within a round cancels the drift.
  const roundRatios = (name: string, method: Method) =>
    (samples[name]?.[method].rps ?? []).map((rps, round) => rps / (bare[method].rps[round] ?? 0))
  const ratio = (name: string, method: Method) => median(roundRatios(name, method))
  const rounds = Object.keys(samples).flatMap((name) =>
    (['GET', 'POST'] as const).map(
      (method) =>
        `| ${name} | ${method} | ${samples[name]?.[method].rps.map((rps) => rps.toFixed(0)).join(', ')} | ${roundRatios(
          name,
          method,
        )
          .map((r) => r.toFixed(2))
          .join(', ')} |`,
    ),
  )
  const table = Object.entries(samples).map(([name, s]) => {
    const cells = (['GET', 'POST'] as const).map(
      (method) =>
        `${median(s[method].rps).toFixed(0)} | ${median(s[method].p99).toFixed(2)} | ${ratio(name, method).toFixed(2)}`,
    )
    return `| ${name} | ${cells.join(' | ')} |`
  })
  return { ratio, roundRatios, table, rounds }
}

function report(
  cold: ColdStartRow[],
  samples: Samples,
  paired: Paired,
  hosts: string,
  scale: ScaleRow[],
  cluster: ClusterRow[],
  live: LiveResult,
  stall: StallRow[],
): string {
  const { ratio, roundRatios, table, rounds } = throughputTables(samples)
  const verdict = (met: boolean) => (met ? 'met' : '**not met**')
  // The verdict on a median of round ratios, saying how many rounds fell short of the floor.
  const roundsVerdict = (ratios: number[], floor: number) => {
    const below = ratios.filter((r) => r < floor).length
    const shortfall = below > 0 ? ` (${below} of ${ratios.length} rounds below)` : ''
    return verdict(median(ratios) >= floor) + shortfall
  }
  // Bare h3's CPU time per request over the target's, in the same paired run.
  const pairedRatios = (name: string, method: Method) =>
    (paired[name]?.[method] ?? []).map((run) => run.bareUs / run.targetUs)
  const pairedRatio = (name: string, method: Method) => median(pairedRatios(name, method))
  const pairedRows = Object.keys(paired).flatMap((name) =>
    (['GET', 'POST'] as const).map((method) => {
      const runs = paired[name]?.[method] ?? []
      return `| ${name} | ${method} | ${median(runs.map((run) => run.targetUs)).toFixed(1)} | ${median(runs.map((run) => run.bareUs)).toFixed(1)} | ${pairedRatios(
        name,
        method,
      )
        .map((r) => r.toFixed(2))
        .join(', ')} | ${pairedRatio(name, method).toFixed(2)} |`
    }),
  )
  const pairedTarget = (label: string, name: string, method: Method, floor: number) =>
    paired[name]
      ? [
          `| ${label}: paired CPU ratio >= ${floor} | ${pairedRatio(name, method).toFixed(2)} | ${roundsVerdict(pairedRatios(name, method), floor)} |`,
        ]
      : []
  const page = (store: string, size: number, which: keyof typeof SCALE_PAGES = 'firstPageMs') =>
    scale.find((r) => r.store === store && r.size === size)?.[which]
  const [smallest, largest] = [Math.min(...SIZES), Math.max(...SIZES)]
  const stores = [...new Set(scale.map((row) => row.store))]
  const targets = [
    // Issue 36 item 4's guards, memory's GET (0.8) from before it.
    ...(
      [
        ['memory', 'GET', 0.8],
        ['memory', 'POST', 0.7],
        ['SQLite', 'GET', 0.9],
        ['SQLite', 'POST', 0.5],
        ['Redis', 'GET', 0.9],
        ['Redis', 'POST', 0.7],
      ] as const
    ).flatMap(([store, method, floor]) => {
      const name = `movie-log ${store}`
      const label = `${method} /movies${method === 'GET' ? ', 100 movies' : ''}, ${store}`
      return [
        `| ${label}: ratio >= ${floor} | ${ratio(name, method).toFixed(2)} | ${roundsVerdict(roundRatios(name, method), floor)} |`,
        ...pairedTarget(label, name, method, floor),
      ]
    }),
    coldStartTarget(cold),
    ...stores.flatMap((store) =>
      Object.entries(SCALE_PAGES).map(([which, query]) => {
        const at = (size: number) => page(store, size, which as keyof typeof SCALE_PAGES)
        const growth = (at(largest) ?? Number.NaN) / (at(smallest) ?? Number.NaN)
        return `| page \`${query}\` at ${largest} <= 2x at ${smallest}, ${store} | ${growth.toFixed(2)}x | ${verdict(growth <= 2)} |`
      }),
    ),
  ]
  const versions = ['h3', 'keyv', 'hono'].map(
    (name) =>
      `${name} ${JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')).version}`,
  )
  return `# Benchmark results

Measured ${new Date().toISOString().slice(0, 10)} with \`npm run bench\` (BENCH_SECONDS=${SECONDS}, BENCH_ROUNDS=${ROUNDS}, BENCH_SIZES=${SIZES.join(',')}).

- Machine: ${cpus()[0]?.model} x ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB
- Node ${process.version}, ${versions.join(', ')}, movie-log ${JSON.parse(readFileSync('package.json', 'utf8')).version}
- Load: ${loadTool}, ${CONNECTIONS} connections, ${SECONDS} s per run after a ${WARMUP_SECONDS} s warm-up per target, targets alternating, ${ROUNDS} rounds, each round on newly started servers, on 127.0.0.1.
  CPUs: ${pinning}.
- req/s and p99 are medians over the rounds; a ratio is the median over the rounds of the
  target's req/s over bare h3's in the same round.

## Throughput (GET with 100 movies; POST adds one each)

| target | GET req/s | GET p99 ms | GET ratio | POST req/s | POST p99 ms | POST ratio |
|---|---|---|---|---|---|---|
${table.join('\n')}

movie-log is an h3 app mounting the built package (bench/mounted-h3.mjs, no request log); every
server runs on ${serversNode()}.
Bare h3 serves the same movies from a plain array: no validation, no store.

### Every round

| target | method | req/s per round | ratio per round |
|---|---|---|---|
${rounds.join('\n')}

${
  pairedRows.length
    ? `## Paired runs (bare h3 and one target under load at once; server CPU time per request)

Each round loads bare h3 and the target together for ${SECONDS} s, and reads each server's user
and system time from /proc: both live through the same drift of the machine's speed, so this
ratio (bare h3's CPU time per request over the target's) varies far less between rounds than
the req/s ratio above. Bare h3's load starts first in odd rounds, the target's in even ones.
The Redis log's time includes redis-server's.

| target | method | target µs per request | bare h3 µs per request | ratio per round | ratio |
|---|---|---|---|---|---|
${pairedRows.join('\n')}

`
    : ''
}## Scale (the example server, \`movie-log serve\`; each page of 50 the median of 20)

Pages: added \`${SCALE_PAGES.firstPageMs}\`; by date \`${SCALE_PAGES.datePageMs}\`; date range \`${SCALE_PAGES.dateRangePageMs}\`;
added, narrow range \`${SCALE_PAGES.addedRangePageMs}\` (a range few movies fall in, read in the order added).

| store | movies | added ms | by date ms | date range ms | added, narrow range ms | full list ms | full list MiB | server RSS MiB |
|---|---|---|---|---|---|---|---|---|
${scale.map((r) => `| ${r.store} | ${r.size} | ${r.firstPageMs.toFixed(2)} | ${r.datePageMs.toFixed(2)} | ${r.dateRangePageMs.toFixed(2)} | ${r.addedRangePageMs.toFixed(2)} | ${r.fullListMs.toFixed(0)} | ${r.fullListMiB.toFixed(1)} | ${r.rssMiB.toFixed(0)} |`).join('\n')}

## Hosts (issue 62: as users mount the log, against bare h3 on the same host, unpinned)

${hosts}

## Redis and Redis Cluster (in process, 64 owners, 32 requests at once)

${clusterReport(cluster)}

## The live feed (one server on memory; two processes, feeds on one and adds to the other)

${liveReport(live)}

## SQLite while an import writes its file

${importStallReport(stall)}

${coldStartReport(cold)}
## Targets

| target | measured | |
|---|---|---|
${targets.join('\n')}

${readFileSync(new URL('./NOTES.md', import.meta.url), 'utf8')}`
}

if (process.env.BENCH_ONLY === 'hosts') {
  console.log(await hostsRun(log))
} else if (process.env.BENCH_ONLY === 'throughput') {
  // The throughput runs alone (a few minutes), printed: RESULTS.md keeps the last full run.
  const { table, rounds } = throughputTables((await throughput()).samples)
  console.log(`| target | GET req/s | GET p99 ms | GET ratio | POST req/s | POST p99 ms | POST ratio |
|---|---|---|---|---|---|---|
${table.join('\n')}

| target | method | req/s per round | ratio per round |
|---|---|---|---|
${rounds.join('\n')}`)
} else {
  // First, while no server of the run is up.
  const cold = await coldStart(log)
  const { samples, paired } = await throughput()
  const hosts = await hostsRun(log)
  const scale = await scaleRun(SIZES, log)
  const cluster = await clusterRun(log)
  const live = await liveRun(log)
  const stall = await importStallRun(log)
  const catalog = await catalogRun(log)
  const results = `${report(cold, samples, paired, hosts, scale, cluster, live, stall)}

## The IMDb catalog: a 1,000,000-row title.basics.tsv.gz loaded, then find

${catalogReport(catalog)}
`
  writeFileSync(new URL('./RESULTS.md', import.meta.url), results)
  console.log(results)
}
