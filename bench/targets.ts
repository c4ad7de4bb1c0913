/**
 * The servers of one throughput round, started anew each round: bare h3 and hono (references),
 * movie-log on memory, SQLite, Redis and PostgreSQL, and json-server 1.0 beta (on Node 24).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { nodeBinary } from '../.ci/node-lines'
import {
  SERVE,
  startJsonServer,
  startPostgres,
  startRedis,
  startTarget,
  type Target,
} from './processes'

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
    targets.push(await startTarget('bare h3', ['bench/bare-h3.ts'], {}))
    targets.push(await startTarget('hono', ['bench/bare-hono.ts'], {}))
    targets.push(await startTarget('movie-log memory', SERVE, { MOVIE_LOG_STORE: 'memory://' }))
    targets.push(await startTarget('movie-log SQLite', SERVE, { MOVIE_LOG_STORE: sqlite }))
    targets.push(await startTarget('movie-log Redis', SERVE, { MOVIE_LOG_STORE: redis.url }))
    postgres = await startPostgres(POSTGRES_ADMIN).catch((error: unknown) => {
      log(`no PostgreSQL target: ${(error as Error).message}`)
      return undefined
    })
    if (postgres) {
      const store = { MOVIE_LOG_STORE: postgres.url }
      targets.push(await startTarget('movie-log PostgreSQL', SERVE, store))
    }
    // json-server 1.0 beta needs Node 22.12 or later: the Node 24 CI caches.
    const node = nodeBinary('24')
    if (node) targets.push(await startJsonServer(folder, node))
    else log('no json-server target: no Node 24 in ~/.cache/movie-log-ci/node')
    return { targets, redisPid: redis.pid, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
