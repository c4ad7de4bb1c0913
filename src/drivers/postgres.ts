/**
 * @module PostgreSQL through pg: `postgres://USER@HOST:5432/DATABASE`, on a pool of the
 * driver's own whose errors it hears, so PostgreSQL ending an idle connection (a restart, a
 * failover, an idle-connection reaper) costs that connection, never the process.
 */
import { createHash } from 'node:crypto'
import type { ClientBase, Pool } from 'pg'
import type { StoreDriver } from '../core/driver'
import { UnsupportedStoreError } from '../core/errors'
import { redact } from '../core/store-url'
import { importPeer } from './peer'
import { createSqlDriver, type SqlConnection } from './sql-driver'
import { CHANGE_CHANNEL, LAST_CHANGE_SEQ, schemaStatements } from './sql-statements'
import type { WakeHub, WakeSource } from './watchers'

/** The oldest PostgreSQL the driver knows (as `server_version_num`). */
export const POSTGRES_MINIMUM = 120000

// Two processes creating the schema at once would race in the catalogue: one waits for the other.
const SCHEMA_LOCK = 0x6d6f7669 // 'movi'

/** A LISTEN connection of the driver's: its client, and how to let go of it. */
interface Listening {
  client: ClientBase
  end(): Promise<void>
}

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
  options: { namespace: string; connectTimeoutMs: number },
): Promise<StoreDriver> {
  checkPostgresUrl(url)
  const { default: pg } = await importPeer('pg', 'postgres://', () => import('pg'))
  const pool = new pg.Pool({
    connectionString: url,
    connectionTimeoutMillis: options.connectTimeoutMs,
    application_name: 'movie-log',
  })
  // An idle connection died: the pool has let go of it and opens another on the next query.
  // Unheard, this event would end the process.
  pool.on('error', () => {})
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
    query: async (sql, parameters) => (await pool.query(sql, parameters as unknown[])).rows,
    transaction: async (steps) => {
      const client = await pool.connect()
      let failure: unknown
      try {
        await client.query('BEGIN')
        for (const [sql, parameters] of steps) await client.query(sql, parameters as unknown[])
        await client.query('COMMIT')
      } catch (error) {
        failure = error
        await client.query('ROLLBACK').catch(() => {})
        throw error
      } finally {
        client.release(failure !== undefined)
      }
    },
    openWakes: (hub, namespace) => openListener(hub, namespace, listenOn),
    close,
  }
  const [row] = await connection.query(
    `SELECT current_setting('server_version_num') AS number, current_setting('server_version') AS version`,
    [],
  )
  checkPostgresVersion(Number(row?.number), String(row?.version))
  await createSchema(pool)
  return createSqlDriver(connection, { kind: 'postgres', namespace: options.namespace })
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
}

async function createSchema(pool: Pool): Promise<void> {
  const client = await pool.connect()
  let failure: unknown
  try {
    await client.query('BEGIN')
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK])
    for (const statement of schemaStatements('postgres')) await client.query(statement)
    await client.query('COMMIT')
  } catch (error) {
    failure = error
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    // A connection that failed is not given back to the pool, but closed.
    client.release(failure !== undefined)
  }
}

// Reconnects of the LISTEN client back off up to this.
const MOST_BACKOFF_MS = 2000
// How long close() waits for the LISTEN client to say goodbye to a server that may be gone.
const END_WAIT_MS = 1000
// How often the LISTEN client looks for changes whose NOTIFY never came (see openListener).
const SWEEP_MS = 2000

const lastSeq = async ({ client }: Listening): Promise<string> =>
  (await client.query<{ seq: string }>(LAST_CHANGE_SEQ)).rows[0]?.seq ?? ''

/**
 * The wake source of a PostgreSQL store: one client LISTENing on CHANGE_CHANNEL, whose payloads
 * name a log by md5(namespace ':' owner) (short, whatever the names: NOTIFY takes < 8000
 * bytes). When it is lost it is opened again, backing off; each time it listens, everyone is
 * woken (NOTIFY is at most once: what was sent while it was away is read from the history).
 *
 * A writer sends its NOTIFY just after its commit (sql-statements.ts says why), so a writer that
 * dies between the two leaves a change no one is told of. Every SWEEP_MS the client reads the
 * last seq handed out, and wakes everyone when it moved: such a change reaches its watchers
 * within SWEEP_MS, at the cost of one history read per watched owner (not per feed) then.
 */
function openListener(
  hub: WakeHub,
  namespace: string,
  listenOn: () => Promise<Listening>,
): WakeSource {
  const hashes = new Map<string, string>()
  const hashOf = (owner: string) => {
    let hash = hashes.get(owner)
    if (hash === undefined) {
      if (hashes.size > 10_000) hashes.clear()
      hash = createHash('md5').update(`${namespace}:${owner}`).digest('hex')
      hashes.set(owner, hash)
    }
    return hash
  }
  const heard = (message: { channel: string; payload?: string }) => {
    if (message.channel !== CHANGE_CHANNEL) return
    for (const owner of hub.owners()) if (hashOf(owner) === message.payload) hub.wake(owner)
  }
  let closed = false
  let current: Listening | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let attempts = 0
  const retry = () => {
    if (closed) return
    timer = setTimeout(start, Math.min(100 * 2 ** attempts++, MOST_BACKOFF_MS))
    timer.unref()
  }
  let sweeper: ReturnType<typeof setInterval> | undefined
  const lost = (listening: Listening) => {
    if (current !== listening) return
    current = undefined
    clearInterval(sweeper)
    listening.end().catch(() => {})
    retry()
  }
  const start = async () => {
    let listening: Listening | undefined
    try {
      listening = await listenOn()
      if (closed) {
        await listening.end()
        return
      }
      const mine = listening
      current = mine
      mine.client.on('notification', heard)
      mine.client.on('error', () => lost(mine))
      mine.client.on('end', () => lost(mine))
      await mine.client.query(`LISTEN ${CHANGE_CHANNEL}`)
      attempts = 0
      let seen = await lastSeq(mine)
      if (current !== mine) return
      hub.wakeAll()
      let sweeping = false
      const sweep = setInterval(async () => {
        if (current !== mine) return clearInterval(sweep)
        if (sweeping) return
        sweeping = true
        try {
          const seq = await lastSeq(mine)
          if (seq !== seen && current === mine) hub.wakeAll()
          seen = seq
        } catch {
          // The client's own error and end events reconnect it.
        } finally {
          sweeping = false
        }
      }, SWEEP_MS)
      sweep.unref()
      sweeper = sweep
    } catch {
      if (listening && current === listening) lost(listening)
      else if (!listening) retry()
    }
  }
  start()
  return {
    close: async () => {
      closed = true
      clearTimeout(timer)
      clearInterval(sweeper)
      const listening = current
      current = undefined
      if (!listening) return
      let waited: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        listening.end().catch(() => {}),
        new Promise((done) => {
          waited = setTimeout(done, END_WAIT_MS)
        }),
      ])
      clearTimeout(waited)
    },
  }
}
