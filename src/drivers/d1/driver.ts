/**
 * @module Cloudflare D1: a Worker's D1 binding (`env.DB`), SQLite behind an API of prepared
 * statements and batches, driven by the SQL driver with SQLite's statements.
 */
import type { StoreDriver } from '../../core/driver'
import type { StoreAdapter } from '../../core/store-adapter'
import { classifyD1Failure } from '../shared/sql-failures'
import { createSqlDriver, type SqlConnection } from '../sql/driver'
import { schemaStatements } from '../sql/statements'
import { isDuplicateColumn } from '../sql/terms'

export { classifyD1Failure }

/** A statement of a D1 binding, as the driver uses it (Cloudflare's `D1PreparedStatement`). */
export interface D1PreparedStatementLike {
  bind(...values: unknown[]): D1PreparedStatementLike
  all(): Promise<{ results: Record<string, unknown>[] }>
}

/**
 * What the driver needs of a D1 binding: Cloudflare's `D1Database` (`env.DB` in a Worker,
 * `getPlatformProxy`'s or Miniflare's `getD1Database` in Node), described here so that
 * movie-log needs no `@cloudflare/workers-types`.
 */
export interface D1DatabaseLike {
  prepare(sql: string): D1PreparedStatementLike
  /** Runs the statements in order as one transaction: all of them or none. */
  batch(statements: D1PreparedStatementLike[]): Promise<unknown[]>
}

// The bindings this isolate made the tables on.
const madeOn = new WeakSet<D1DatabaseLike>()

/** How often a watch asks D1 for its log's latest change (D1 has no LISTEN). */
const D1_POLL_MS = 1000

/**
 * The D1 store for `createMovieLog` / `createMovieLogs`: the driver's tables are created in
 * the database on first use (`CREATE … IF NOT EXISTS`, one batch), beside any of the app's own.
 *
 * @example
 * ```ts
 * import { createMovieLog } from 'movie-log'
 * import { d1 } from 'movie-log/d1'
 *
 * export default {
 *   async fetch(request: Request, env: { DB: D1Database }) {
 *     const log = createMovieLog(d1(env.DB))
 *     return Response.json(await log.listMovies({ limit: 50 }))
 *   },
 * }
 * ```
 */
export function d1(db: D1DatabaseLike): StoreAdapter {
  return {
    kind: 'd1',
    remote: true,
    open: (options) => openD1Driver(db, options),
    classifyFailure: classifyD1Failure,
  }
}

/**
 * The driver over a D1 binding, its tables created if missing. `close()` leaves the binding as
 * it is (the runtime's).
 *
 * @example
 * ```ts
 * const driver = await openD1Driver(env.DB, { namespace: 'movie-log' })
 * ```
 */
export async function openD1Driver(
  db: D1DatabaseLike,
  options: { namespace: string },
): Promise<StoreDriver> {
  // No version check: D1 refuses sqlite_version() (and `PRAGMA journal_mode`); it runs a
  // SQLite with RETURNING, and keeps its own journal. A log made per request opens the driver
  // per request: the tables are made once per binding the isolate keeps.
  if (!madeOn.has(db)) {
    await makeTables(db)
    madeOn.add(db)
  }
  const connection: SqlConnection = {
    dialect: 'sqlite',
    query: async (sql, parameters) =>
      (
        await db
          .prepare(sql)
          .bind(...parameters)
          .all()
      ).results,
    // A batch is one transaction: a drop deletes all of an owner's rows or none.
    transaction: async (steps) => {
      await db.batch(steps.map(([sql, parameters]) => db.prepare(sql).bind(...parameters)))
    },
    // Each watch polls for itself (below): the store-wide source wakes no one.
    openWakes: () => ({ close: async () => {} }),
    close: async () => {},
  }
  const driver = createSqlDriver(connection, {
    kind: 'd1',
    namespace: options.namespace,
    classifyFailure: classifyD1Failure,
  })
  const polls = new Set<() => void>()
  return {
    ...driver,
    // This isolate's writes wake at once (the SQL driver's watchers); another isolate's are
    // found by polling the log's latest change. The poll is the watch's own, its timer made
    // where the watch is (in a Worker, in the request that streams the feed): a poller shared
    // by the store would live in the request that opened it, and stop with it.
    onChange: (owner, wake) => {
      const stopOwn = driver.onChange(owner, wake)
      const stopPoll = pollLatestChange(() => driver.log(owner).latestChange(), wake)
      const stop = () => {
        polls.delete(stop)
        stopOwn()
        stopPoll()
      }
      polls.add(stop)
      return stop
    },
    close: async () => {
      for (const stop of [...polls]) stop()
      await driver.close()
    },
  }
}

/**
 * Reads `latest` every D1_POLL_MS and calls `wake` when it moved, and once after the first read
 * (the watch then reads what came before it listened); a read that failed wakes it too.
 */
function pollLatestChange(latest: () => Promise<string | undefined>, wake: () => void) {
  let seen: string | undefined | null = null
  let reading = false
  let stopped = false
  const tick = async () => {
    if (reading) return
    reading = true
    try {
      const now = await latest()
      if (!stopped && now !== seen) {
        seen = now
        wake()
      }
    } catch {
      // The watch's own read then meets what failed: a blip passes, and a lasting failure (a
      // Worker's invocation past its 1,000 D1 queries, 50 on the free plan) ends the watch, which
      // a feed's client resumes, from its last event id, in a new invocation.
      if (!stopped) wake()
    } finally {
      reading = false
    }
  }
  void tick()
  const timer = setInterval(tick, D1_POLL_MS)
  // Node: polling never keeps a process alive on its own (Workers' timers have no unref).
  ;(timer as { unref?: () => void }).unref?.()
  return () => {
    stopped = true
    clearInterval(timer)
  }
}

/**
 * The driver's tables, in batches: a column added to a table an older movie-log made is added
 * alone, since SQLite has no ADD COLUMN IF NOT EXISTS and its refusal as a duplicate (made by
 * another isolate, or before) must not undo a batch.
 */
async function makeTables(db: D1DatabaseLike): Promise<void> {
  let batch: string[] = []
  const flush = async () => {
    if (batch.length > 0) await db.batch(batch.map((statement) => db.prepare(statement)))
    batch = []
  }
  for (const statement of schemaStatements('sqlite')) {
    if (!/^ALTER TABLE\b/i.test(statement)) {
      batch.push(statement)
      continue
    }
    await flush()
    await db
      .prepare(statement)
      .all()
      .catch((error: unknown) => {
        if (!isDuplicateColumn(error)) throw error
      })
  }
  await flush()
}
