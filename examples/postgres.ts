/**
 * PostgreSQL for the example: @keyv/postgres over a pg Pool of its own that it listens to.
 *
 * @keyv/postgres makes its pg Pool itself (one per URL, shared by every adapter on that URL),
 * and neither listens for the pool's `error` events nor exposes the pool. pg emits one whenever
 * an idle connection dies (PostgreSQL restarted, a failover, an idle-connection reaper), and an
 * `error` event nobody listens to ends the process. The adapter gets its query function from its
 * public `connect()`: overridden here, it queries a pool this adapter owns and hears.
 */
import KeyvPostgres, { type KeyvPostgresOptions } from '@keyv/postgres'
import pg from 'pg'

type Query = (sql: string, values?: unknown[]) => Promise<unknown[]>

// Kept beside the adapter, not on it: KeyvPostgres's constructor calls connect() before a field
// of this subclass could be set.
const pools = new WeakMap<PostgresStore, pg.Pool>()

/**
 * A KeyvPostgres that survives PostgreSQL ending its connections: a dead idle connection is
 * dropped from the pool (and reported as the adapter's `error` event, which Keyv forwards), and
 * the next query opens a new one. Queries that a dying connection was running fail, as they must.
 *
 * @example
 * ```ts
 * const keyv = new Keyv({ store: new PostgresStore({ uri: 'postgres://user@host/db' }) })
 * ```
 */
export class PostgresStore extends KeyvPostgres {
  constructor(options: KeyvPostgresOptions) {
    super(options)
  }

  override async connect(): Promise<Query> {
    let pool = pools.get(this)
    if (!pool) {
      pool = new pg.Pool({ connectionString: this.opts.uri, ...this.opts })
      // An idle connection's error: the pool has already let go of it. Keyv hears it when it
      // wraps this adapter; before that (or unheard) it is dropped rather than thrown.
      pool.on('error', (error) => {
        if (this.listenerCount('error') > 0) this.emit('error', error)
      })
      pools.set(this, pool)
    }
    const queried = pool
    return async (sql, values) => (await queried.query(sql, values)).rows
  }

  override async disconnect(): Promise<void> {
    const pool = pools.get(this)
    pools.delete(this)
    await pool?.end()
  }
}
