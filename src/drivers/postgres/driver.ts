/**
 * @module PostgreSQL through pg: `postgres://USER@HOST:5432/DATABASE`, on a pool of the
 * driver's own whose errors it hears, so PostgreSQL ending an idle connection (a restart, a
 * failover, an idle-connection reaper) costs that connection, never the process.
 */
import { createHash } from 'node:crypto'
import process from 'node:process'
import type { ClientConfig, Pool, PoolClient, QueryResult } from 'pg'
import type { StoreDriver } from '../../core/driver'
import { UnsupportedStoreError } from '../../core/errors'
import type { StoreAdapter } from '../../core/store-adapter'
import { redact } from '../../core/store-url'
import { importPeer } from '../shared/peer'
import { classifyPostgresFailure } from '../shared/sql-failures'
import { createSqlDriver, type SqlConnection } from '../sql/driver'
import { schemaStatements } from '../sql/statements'
import { type Listening, openListener } from './listen'

/** The oldest PostgreSQL the driver knows (as `server_version_num`). */
export const POSTGRES_MINIMUM = 120000

/** The pool's connections at most, as pg's default. */
const POOL_SIZE = 10
const READ = /^\s*SELECT\b/i

// The server ended the connection (pg_terminate_backend, a shutdown), or pg found it ended.
function endedWhileIdle(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return code === '57P01' || code === '57P02' || /^Connection terminated/.test(String(message))
}

// Two processes creating the schema at once would race in the catalogue: one waits for the other.
const SCHEMA_LOCK = 0x6d6f7669 // 'movi'

/**
 * Opens a pool on the database a `postgres://` (or `postgresql://`) URL names, checks the
 * server's version and creates the driver's tables if they are missing.
 *
 * @example
 * ```ts
 * const driver = await openPostgresDriver('postgres://postgres@127.0.0.1:5432/movies', {
 *   namespace: 'movie-log',
 *   connectTimeoutMs: 2000,
 * })
 * ```
 */
export async function openPostgresDriver(
  url: string,
  options: { namespace: string; connectTimeoutMs: number; storeTimeoutMs?: number },
): Promise<StoreDriver> {
  checkPostgresUrl(url)
  const { default: pg } = await importPeer('pg', 'postgres://', () => import('pg'))
  const { connectTimeoutMs, storeTimeoutMs = 5000 } = options
  // Connecting is bounded by connectTimeoutMs, on each connection the pool makes.
  class Connection extends pg.Client {
    constructor(config?: ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectTimeoutMs })
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    Client: Connection,
    max: POOL_SIZE,
    // pg-pool bounds a call's wait for a free connection with this too: a burst larger than the
    // pool waits its turn as long as a store call may take, and leaves the queue when its caller
    // has given up. Bounded by connectTimeoutMs, one owner's 200 adds at once (serialised on its
    // counters' rows) failed on a loaded machine with a healthy database.
    connectionTimeoutMillis: Math.max(connectTimeoutMs, storeTimeoutMs),
    application_name: 'movie-log',
    // A statement past the store call's bound is cancelled by PostgreSQL (57014): a query stuck
    // on a lock gives its connection back, and its write does not land after its caller was told
    // the store failed. A SET before the pool hands a connection out: PgBouncer refuses it as a
    // startup parameter.
    onConnect: async (client) => {
      await client.query(`SET statement_timeout = ${Math.ceil(storeTimeoutMs)}`)
    },
  })
  // An idle connection died: the pool has let go of it and opens another on the next query.
  // Unheard, this event would end the process; said, an operator sees the restart or reaper.
  pool.on('error', (error) => {
    process.emitWarning(
      `movie-log: PostgreSQL ended a connection of the pool while it was idle (${error.message}): a restart, a failover or an idle-connection reaper; the pool opens another when needed`,
      { code: 'MOVIE_LOG_POSTGRES_CONNECTION_ENDED' },
    )
  })
  // The LISTEN client: a connection of its own, never one of the pool's.
  const listenOn = async (): Promise<Listening> => {
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: options.connectTimeoutMs,
      application_name: 'movie-log-changes',
    })
    client.on('error', () => {})
    await client.connect().catch(async (error: unknown) => {
      await client.end().catch(() => {})
      throw error
    })
    return { client, end: () => client.end() }
  }
  try {
    return await preparedDriver(pool, options, () => pool.end(), listenOn)
  } catch (error) {
    await pool.end().catch(() => {})
    throw error
  }
}

/**
 * The driver over a pg `Pool` of the caller's, which `close()` leaves open: checks the server's
 * version and creates the driver's tables if missing. The pool's `error` events are the
 * caller's to hear.
 *
 * @example
 * ```ts
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL })
 * pool.on('error', (error) => console.warn(error))
 * const driver = await postgresDriverOver(pool, { namespace: 'movie-log' })
 * ```
 */
export function postgresDriverOver(
  pool: Pool,
  options: { namespace: string },
): Promise<StoreDriver> {
  // The LISTEN client: one of the caller's pool, kept out of it until close() (then destroyed).
  const listenOn = async (): Promise<Listening> => {
    const client = await pool.connect()
    client.on('error', () => {})
    return { client, end: async () => client.release(true) }
  }
  return preparedDriver(pool, options, async () => {}, listenOn)
}

async function preparedDriver(
  pool: Pool,
  options: { namespace: string },
  close: () => Promise<void>,
  listenOn: () => Promise<Listening>,
): Promise<StoreDriver> {
  const connection: SqlConnection = {
    dialect: 'postgres',
    query: async (sql, parameters) => {
      // A connection PostgreSQL ended while idle (a restart, a failover, a reaper) can be handed
      // out before the pool has heard of it: a read that meets one is sent again, on another.
      // Each meeting costs the pool that connection, so a pool of ten runs out of them.
      for (let attempt = 0; ; attempt++) {
        try {
          return (await pool.query(sql, parameters as unknown[])).rows
        } catch (error) {
          if (!READ.test(sql) || !endedWhileIdle(error) || attempt >= POOL_SIZE) throw error
        }
      }
    },
    transaction: (steps) => inTransaction(pool, steps).then(() => undefined),
    // The one-time work on an older database (its terms counted in): as long as it takes.
    unbounded: (sql, parameters) =>
      inTransaction(pool, [
        [UNBOUNDED, []],
        [sql, parameters],
      ]),
    openWakes: (hub, namespace) => openListener(hub, namespace, listenOn),
    close,
  }
  const [row] = await connection.query(
    `SELECT current_setting('server_version_num') AS number, current_setting('server_version') AS version`,
    [],
  )
  checkPostgresVersion(Number(row?.number), String(row?.version))
  await createSchema(pool)
  return createSqlDriver(connection, {
    kind: 'postgres',
    namespace: options.namespace,
    classifyFailure: classifyPostgresFailure,
  })
}

const UNBOUNDED = 'SET LOCAL statement_timeout = 0'

/**
 * `work` in one transaction on a connection of the pool: committed when it returns, rolled back
 * when it throws.
 */
async function withTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect()
  let failure: unknown
  try {
    await client.query('BEGIN')
    const result = await work(client)
    await client.query('COMMIT')
    return result
  } catch (error) {
    failure = error
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    // A connection that failed is not given back to the pool, but closed.
    client.release(failure !== undefined)
  }
}

/** `steps` in one transaction; the last step's rows. */
function inTransaction(
  pool: Pool,
  steps: readonly (readonly [string, readonly unknown[]])[],
): Promise<Record<string, unknown>[]> {
  return withTransaction(pool, async (client) => {
    let result: QueryResult | undefined
    for (const [sql, parameters] of steps) result = await client.query(sql, parameters as unknown[])
    return (result as QueryResult).rows
  })
}

/**
 * Refuses a PostgreSQL older than the driver knows, naming both versions.
 *
 * @example
 * ```ts
 * checkPostgresVersion(110005, '11.5') // throws UnsupportedStoreError
 * ```
 */
export function checkPostgresVersion(number: number, version: string): void {
  if (!(number >= POSTGRES_MINIMUM)) {
    throw new UnsupportedStoreError(
      `PostgreSQL ${version} is too old for movie-log: it needs PostgreSQL ${POSTGRES_MINIMUM / 10000} or later`,
    )
  }
}

// pg would connect to the user's own database: a store URL must say which.
function checkPostgresUrl(url: string): void {
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (!parsed || !(parsed.hostname || parsed.searchParams.has('host'))) {
    throw new UnsupportedStoreError(
      `The store URL '${redact(url)}' is not a valid URL with a host (postgres://USER@HOST:5432/DATABASE)`,
    )
  }
  if (parsed.pathname.replace(/^\//, '') === '') {
    throw new UnsupportedStoreError(
      `The store URL '${redact(url)}' names no database (postgres://USER@HOST:5432/DATABASE)`,
    )
  }
  // pg takes its own parameters (sslmode, ...) and drops any other without a word.
  if (parsed.searchParams.has('namespace')) {
    throw new UnsupportedStoreError(
      `The store URL '${redact(url)}' has a namespace parameter: the namespace is an option of the log (createMovieLog(url, { namespace }))`,
    )
  }
}

// Marks a schema this version made, on its movies table: a driver that finds it runs no DDL.
const SCHEMA_MARK = `movie-log schema ${createHash('sha256')
  .update(schemaStatements('postgres').join(';\n'))
  .digest('hex')
  .slice(0, 16)}`

const SCHEMA_MARK_READ = `SELECT obj_description(to_regclass('movie_log_movies'), 'pg_class') AS mark`

/**
 * Makes the tables, triggers and functions, unless this version made them already. Even
 * `CREATE INDEX IF NOT EXISTS` locks its table first: behind a write in flight, and every later
 * write behind it, so a process starting would stall the others' writes.
 */
async function createSchema(pool: Pool): Promise<void> {
  const marked = async (client: Pick<Pool, 'query'>) =>
    (await client.query<{ mark: string | null }>(SCHEMA_MARK_READ)).rows[0]?.mark === SCHEMA_MARK
  if (await marked(pool)) return
  await withTransaction(pool, async (client) => {
    // Making the schema (or waiting for another process making it) is no store call: unbounded.
    await client.query(UNBOUNDED)
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK])
    // Another process may have made it while this one waited for the lock.
    if (await marked(client)) return
    for (const statement of schemaStatements('postgres')) await client.query(statement)
    await client.query(`COMMENT ON TABLE movie_log_movies IS '${SCHEMA_MARK}'`)
  })
}

/**
 * A PostgreSQL store for `createMovieLog`: a `postgres://` URL (a pool of the log's own, with
 * the `pg` package), or a pg `Pool` of yours, which the log's `close()` leaves open.
 *
 * @example
 * ```ts
 * import { createMovieLog } from 'movie-log'
 * import { postgres } from 'movie-log/postgres'
 *
 * const log = createMovieLog(postgres('postgres://app@127.0.0.1:5432/movies'))
 * ```
 */
export function postgres(target: string | Pool): StoreAdapter {
  return {
    kind: 'postgres',
    remote: true,
    open: (options) =>
      typeof target === 'string'
        ? openPostgresDriver(target, options)
        : postgresDriverOver(target, options),
    classifyFailure: classifyPostgresFailure,
  }
}
