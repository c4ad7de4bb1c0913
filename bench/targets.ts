/**
 * The servers of one throughput round, started anew each round: bare h3 and hono (references),
 * movie-log on memory, SQLite, Redis and PostgreSQL, and json-server 1.0 beta (on Node 24).
 * movie-log is an h3 app mounting the built package (bench/mounted-h3.mjs), as the issue's
 * harness measured it; every server runs on plain node, on the line BENCH_NODE names (24 by
 * default: the default store's own node:sqlite there; 20: this process's node, sqlite3).
 * BENCH_SERVE=1 adds `movie-log serve` from source through tsx (memory), as `npm start` runs it.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { nodeBinary } from '../.ci/node-lines'
import {
  MOUNTED,
  SERVE,
  startJsonServer,
  startPostgres,
  startRedis,
  startTarget,
  type Target,
} from './processes'

const NODE_LINE = process.env.BENCH_NODE ?? '24'
const SERVE_TOO = process.env.BENCH_SERVE === '1'

/** The servers' Node, as RESULTS.md names it: `Node v24.21.0`. */
export function serversNode(): string {
  return `Node ${spawnSync(serverNode(), ['--version'], { encoding: 'utf8' }).stdout.trim()}`
}

/** The servers' node: BENCH_NODE's line from the CI caches, or this process's for 20. */
function serverNode(): string {
  if (NODE_LINE === process.versions.node.split('.')[0]) return process.execPath
  const node = nodeBinary(NODE_LINE)
  if (!node) throw new Error(`no Node ${NODE_LINE} in ~/.cache/movie-log-ci/node (BENCH_NODE)`)
  return node
}

const POSTGRES_ADMIN =
  process.env.BENCH_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

export interface Round {
  targets: Target[]
  /** The round's redis-server, whose CPU time counts with the Redis log's. */
  redisPid: number
  stop(): Promise<void>
}

export async function startRound(log: (line: string) => void): Promise<Round> {
  const redis = await startRedis()
  const targets: Target[] = []
  const folder = mkdtempSync(join(tmpdir(), 'movie-log-bench-'))
  let postgres: Awaited<ReturnType<typeof startPostgres>> | undefined
  const stop = async () => {
    await Promise.all(targets.map((target) => target.stop()))
    await redis.stop()
    await postgres?.drop()
    rmSync(folder, { recursive: true, force: true })
  }
  try {
    const sqlite = `sqlite://${join(folder, 'movies.sqlite')}`
    // One at a time, each listed as soon as it runs: a failed start still stops the others.
    const node = serverNode()
    const start = (name: string, script: string[], env: Record<string, string> = {}) =>
      startTarget(name, script, env, node)
    // One at a time, each listed as soon as it runs: a failed start still stops the others.
    targets.push(await start('bare h3', ['bench/bare-h3.mjs']))
    targets.push(await start('hono', ['bench/bare-hono.mjs']))
    targets.push(await start('movie-log memory', MOUNTED, { MOVIE_LOG_STORE: 'memory://' }))
    if (SERVE_TOO) {
      targets.push(await start('movie-log serve memory', SERVE, { MOVIE_LOG_STORE: 'memory://' }))
    }
    targets.push(await start('movie-log SQLite', MOUNTED, { MOVIE_LOG_STORE: sqlite }))
    targets.push(await start('movie-log Redis', MOUNTED, { MOVIE_LOG_STORE: redis.url }))
    postgres = await startPostgres(POSTGRES_ADMIN).catch((error: unknown) => {
      log(`no PostgreSQL target: ${(error as Error).message}`)
      return undefined
    })
    if (postgres) {
      const store = { MOVIE_LOG_STORE: postgres.url }
      targets.push(await start('movie-log PostgreSQL', MOUNTED, store))
    }
    // json-server 1.0 beta needs Node 22.12 or later: the Node 24 CI caches.
    const node24 = nodeBinary('24')
    if (node24) targets.push(await startJsonServer(folder, node24))
    else log('no json-server target: no Node 24 in ~/.cache/movie-log-ci/node')
    return { targets, redisPid: redis.pid, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
