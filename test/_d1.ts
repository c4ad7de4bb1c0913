import type { Miniflare } from 'miniflare'
import { registerStoreOpener } from 'movie-log'
import { afterAll } from 'vitest'
import type { StoreDriver } from '../src/core/driver'
import {
  classifyD1Failure,
  type D1DatabaseLike,
  type D1PreparedStatementLike,
  openD1Driver,
} from '../src/drivers/d1/driver'
import { d1Miniflare } from './_worker'

/**
 * A local D1 (Miniflare's workerd, in memory) for one test file, disposed after it. `binding()`
 * is a new binding of the same database each call, as another isolate of a Worker would hold.
 */
export function localD1(): { binding(): Promise<D1DatabaseLike>; miniflare: Miniflare } {
  const miniflare = d1Miniflare()
  afterAll(() => miniflare.dispose())
  return {
    miniflare,
    // No cast: Cloudflare's D1Database (Miniflare's type of it) is a D1DatabaseLike.
    binding: async (): Promise<D1DatabaseLike> => miniflare.getD1Database('DB'),
  }
}

/** A D1 binding whose every call fails as D1 does when the way to its database is lost. */
export function unreachableD1(): D1DatabaseLike {
  const lost = async (): Promise<never> => {
    throw new Error('D1_ERROR: Network connection lost.')
  }
  const statement = { bind: () => statement, all: lost }
  return { prepare: () => statement, batch: lost }
}

/**
 * Registers `scheme` for `createMovieLog('<scheme>://')` to open the D1 driver on `open()`'s
 * binding, as `createMovieLog(d1(db))` does.
 */
export function registerD1Scheme(scheme: string, open: () => Promise<D1DatabaseLike>): void {
  registerStoreOpener({
    schemes: [scheme],
    remote: true,
    open: async (_url, options): Promise<StoreDriver> => openD1Driver(await open(), options),
    classifyFailure: classifyD1Failure,
  })
}

/**
 * `db` counting the rows D1 says each statement read (`meta.rows_read`, what D1 bills), for a
 * test to tell a range of an index from a scan.
 */
export function countingD1(db: D1DatabaseLike): { binding: D1DatabaseLike; rowsRead(): number } {
  let rows = 0
  const counted = (result: unknown) => {
    rows += (result as { meta?: { rows_read?: number } }).meta?.rows_read ?? 0
    return result
  }
  const wrap = (statement: D1PreparedStatementLike): D1PreparedStatementLike =>
    ({
      bind: (...values) => wrap(statement.bind(...values)),
      all: async () => counted(await statement.all()) as Awaited<ReturnType<typeof statement.all>>,
      unwrapped: statement,
    }) as D1PreparedStatementLike
  return {
    binding: {
      prepare: (sql) => wrap(db.prepare(sql)),
      batch: async (statements) =>
        (
          await db.batch(
            statements.map(
              (each) => (each as { unwrapped?: D1PreparedStatementLike }).unwrapped ?? each,
            ),
          )
        ).map(counted),
    },
    rowsRead: () => rows,
  }
}
