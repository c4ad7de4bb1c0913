/**
 * @module SQLite through the sqlite3 package: `sqlite://PATH`, a file shared by every process
 * that opens it (write-ahead log, and a busy timeout to wait for another writer's lock).
 */
import { mkdir, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import type { Database } from 'sqlite3'
import type { StoreDriver } from '../core/driver'
import { UnsupportedStoreError } from '../core/errors'
import { importPeer } from './peer'
import { createSqlDriver, type SqlConnection } from './sql-driver'
import { classifySqliteFailure } from './sql-failures'
import { schemaStatements, sqlStatements } from './sql-statements'
import { isDuplicateColumn } from './sql-terms'
import type { WakeHub, WakeSource } from './watchers'

/** How long a statement waits for another process's write lock before it fails SQLITE_BUSY. */
const BUSY_TIMEOUT_MS = 5000

/** The oldest SQLite the driver knows: 3.35 brought RETURNING, which every write relies on. */
export const SQLITE_MINIMUM = '3.35'

/** How often the poller asks whether another connection wrote the file, while anyone watches. */
const POLL_MS = 250

/**
 * Opens the SQLite file a `sqlite://PATH` URL names (relative to the working directory;
 * `sqlite:///abs/path` for an absolute one), creating its folder and the driver's tables.
 *
 * @example
 * ```ts
 * const driver = await openSqliteDriver('sqlite://./data/movies.sqlite', {
 *   namespace: 'movie-log',
 *   connectTimeoutMs: 2000,
 * })
 * ```
 */
export async function openSqliteDriver(
  url: string,
  options: { namespace: string; connectTimeoutMs: number },
): Promise<StoreDriver> {
  const path = sqlitePath(url)
  // sqlite3 is CommonJS: Node gives its exports as the default export, which its types omit.
  const { default: sqlite3 } = await importPeer('sqlite3', 'sqlite://', async () => ({
    default: ((await import('sqlite3')) as unknown as { default: typeof import('sqlite3') })
      .default,
  }))
  try {
    await makeFolder(dirname(path))
  } catch (error) {
    throw openFailure(`cannot create the SQLite file ${path}: ${(error as Error).message}`, error)
  }
  const db = await new Promise<Database>((done, fail) => {
    const opened: Database = new sqlite3.Database(path, (error) =>
      error ? fail(error) : done(opened),
    )
  }).catch((error: unknown) => {
    const code = (error as { code?: string }).code ?? 'unknown error'
    throw openFailure(`cannot open the SQLite file ${path} (${code})`, error)
  })
  try {
    // Several processes may write one file: wait for the lock rather than fail at once.
    db.configure('busyTimeout', BUSY_TIMEOUT_MS)
    // WAL: a commit appends to one log file and syncs it once, where the default journal syncs
    // several files per commit (three times the adds per second). Still synchronous FULL.
    await useWriteAheadLog(db)
    // The poller's connection, opened on the first watch: another connection's commits are
    // what its data_version counts (this driver's among them).
    const pollOn = async () => {
      const own = await new Promise<Database>((done, fail) => {
        const opened: Database = new sqlite3.Database(path, (error) =>
          error ? fail(error) : done(opened),
        )
      })
      own.configure('busyTimeout', BUSY_TIMEOUT_MS)
      return { db: own, close: () => closeDatabase(own) }
    }
    return await preparedDriver(db, options, () => closeDatabase(db), pollOn)
  } catch (error) {
    await closeDatabase(db).catch(() => {})
    throw error
  }
}

/**
 * The driver over a sqlite3 `Database` of the caller's, which `close()` leaves open: checks the
 * SQLite version and creates the driver's tables if missing. Several processes writing one file
 * need the busy timeout and WAL that `openSqliteDriver` sets.
 *
 * @example
 * ```ts
 * const db = new sqlite3.Database('movies.sqlite')
 * db.configure('busyTimeout', 5000)
 * const driver = await sqliteDriverOver(db, { namespace: 'movie-log' })
 * ```
 */
export function sqliteDriverOver(
  db: Database,
  options: { namespace: string },
): Promise<StoreDriver> {
  // No file name to open another connection on: the poller asks the caller's own, whose
  // data_version counts every other connection's commits.
  return preparedDriver(
    db,
    options,
    async () => {},
    async () => ({ db, close: async () => {} }),
  )
}

async function preparedDriver(
  db: Database,
  options: { namespace: string },
  close: () => Promise<void>,
  pollOn: () => Promise<{ db: Database; close(): Promise<void> }>,
): Promise<StoreDriver> {
  const connection: SqlConnection = {
    ...sqliteConnection(db),
    openWakes: (hub, namespace) => openPoller(hub, namespace, pollOn),
    close,
  }
  const [row] = await connection.query('SELECT sqlite_version() AS version', [])
  checkSqliteVersion(String(row?.version))
  for (const statement of schemaStatements('sqlite')) {
    await connection.query(statement, []).catch((error: unknown) => {
      if (!isDuplicateColumn(error)) throw error
    })
  }
  return createSqlDriver(connection, {
    kind: 'sqlite',
    namespace: options.namespace,
    classifyFailure: classifySqliteFailure,
  })
}

/**
 * Refuses a SQLite older than the driver knows, naming both versions.
 *
 * @example
 * ```ts
 * checkSqliteVersion('3.31.1') // throws UnsupportedStoreError
 * ```
 */
export function checkSqliteVersion(version: string): void {
  if (compareVersions(version, SQLITE_MINIMUM) < 0) {
    throw new UnsupportedStoreError(
      `SQLite ${version} is too old for movie-log: it needs SQLite ${SQLITE_MINIMUM} or later (for RETURNING); update the sqlite3 package`,
    )
  }
}

/** Compares dotted version numbers (`3.9` < `3.35`); a part that is not a number counts as 0. */
function compareVersions(a: string, b: string): number {
  const parts = (version: string) =>
    version.split('.').map((part) => Number.parseInt(part, 10) || 0)
  const [left, right] = [parts(a), parts(b)]
  for (let at = 0; at < Math.max(left.length, right.length); at++) {
    const difference = (left[at] ?? 0) - (right[at] ?? 0)
    if (difference !== 0) return difference
  }
  return 0
}

function sqlitePath(url: string): string {
  const path = url.replace(/^sqlite:\/\//i, '')
  if (!path || path === url) {
    throw new UnsupportedStoreError(
      `The store URL '${url}' names no file (sqlite://./data/movies.sqlite)`,
    )
  }
  return resolve(path)
}

/**
 * Creates `folder` and its missing parents, one level at a time. Node's recursive mkdir retries
 * forever, one core at 100%, where mkdir answers ENOENT for a folder whose parent exists
 * (`/proc/nope`): here that ENOENT is the answer.
 */
async function makeFolder(folder: string): Promise<void> {
  const missing: string[] = []
  for (let at = folder; ; at = dirname(at)) {
    try {
      await stat(at)
      break
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT' || dirname(at) === at) throw error
      missing.unshift(at)
    }
  }
  for (const each of missing) {
    await mkdir(each).catch((error: unknown) => {
      // Made meanwhile by another process opening the same store: as good as made here.
      if ((error as { code?: unknown }).code !== 'EEXIST') throw error
    })
  }
}

/** The cause of a file that cannot be created or opened, in a message naming the path. */
function openFailure(message: string, cause: unknown): Error {
  return Object.assign(new Error(message, { cause }), { code: (cause as { code?: unknown }).code })
}

function sqliteConnection(db: Database): Pick<SqlConnection, 'dialect' | 'query' | 'transaction'> {
  const query: SqlConnection['query'] = (sql, parameters) =>
    new Promise((done, fail) => {
      db.all<Record<string, unknown>>(sql, parameters, (error, rows) =>
        error ? fail(error) : done(rows),
      )
    })
  return {
    dialect: 'sqlite',
    query,
    // One connection serves every call at once, so no BEGIN here: the steps are each atomic.
    transaction: async (steps) => {
      for (const [sql, parameters] of steps) await query(sql, parameters)
    },
  }
}

/**
 * The wake source of a SQLite store: every POLL_MS while anyone watches, `PRAGMA data_version`
 * on a connection of its own; when it moved (another connection committed) or an owner is newly
 * watched, each watched owner's latest change is read, and the owners whose latest moved are
 * woken. A newly watched owner is woken once it is read (its first "ready").
 */
function openPoller(
  hub: WakeHub,
  namespace: string,
  pollOn: () => Promise<{ db: Database; close(): Promise<void> }>,
): WakeSource {
  const latest = sqlStatements('sqlite').latestChange
  const seen = new Map<string, unknown>()
  let version: unknown
  let connection: Promise<{ db: Database; close(): Promise<void> }> | undefined
  let running: Promise<void> | undefined
  const tick = async () => {
    const owners = new Set(hub.owners())
    if (owners.size === 0) {
      seen.clear()
      return
    }
    connection ??= pollOn()
    const { query } = sqliteConnection((await connection).db)
    const [row] = await query('PRAGMA data_version', [])
    const moved = row?.data_version !== version
    version = row?.data_version
    for (const owner of owners) {
      if (!moved && seen.has(owner)) continue
      const [last] = await query(latest, [namespace, owner])
      if (seen.has(owner) && seen.get(owner) === last?.seq) continue
      seen.set(owner, last?.seq)
      hub.wake(owner)
    }
    for (const owner of seen.keys()) if (!owners.has(owner)) seen.delete(owner)
  }
  const timer = setInterval(() => {
    // A tick that failed (the file busy, or closed) is tried again at the next.
    running ??= tick()
      .catch(() => {})
      .finally(() => {
        running = undefined
      })
  }, POLL_MS)
  // Polling never keeps a process alive on its own.
  timer.unref()
  return {
    close: async () => {
      clearInterval(timer)
      await running
      await (await connection?.catch(() => undefined))?.close()
    },
  }
}

/**
 * Switches the file to WAL. The switch needs the file to itself, and SQLite answers SQLITE_BUSY
 * at once (without its busy handler) while another connection opens the same new file, so the
 * switch is retried until the busy timeout (on a file already in WAL it is a no-op).
 */
async function useWriteAheadLog(db: Database): Promise<void> {
  const { query } = sqliteConnection(db)
  const deadline = Date.now() + BUSY_TIMEOUT_MS
  for (;;) {
    try {
      await query('PRAGMA journal_mode = WAL', [])
      return
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error
      await new Promise((done) => setTimeout(done, 5 + Math.random() * 20))
    }
  }
}

function closeDatabase(db: Database): Promise<void> {
  return new Promise((done, fail) => db.close((error) => (error ? fail(error) : done())))
}
