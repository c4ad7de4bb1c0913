/**
 * @module SQLite: `sqlite://PATH`, a file shared by every process that opens it (write-ahead
 * log; another writer's lock waited for on a timer, never in the thread), on the runtime's own
 * SQLite or the sqlite3 package, writes that arrive together committed together.
 */
import { resolve } from 'node:path'
import type { Database } from 'sqlite3'
import type { StoreDriver } from '../../core/driver'
import { UnsupportedStoreError } from '../../core/errors'
import type { StoreAdapter } from '../../core/store-adapter'
import { classifySqliteFailure } from '../shared/sql-failures'
import { createSqlDriver, type SqlConnection } from '../sql/driver'
import { OLDER_TRIGGERS } from '../sql/rollup'
import {
  OLDER_HISTORY_TRIGGERS,
  SQLITE_HISTORY_OF_EDITS,
  schemaStatements,
} from '../sql/statements'
import { isDuplicateColumn, OLDER_TERMS_TRIGGERS } from '../sql/terms'
import { builtinCheckpoints, builtinSqliteWarns, loadBuiltinSqlite } from './builtin'
import { patientClient } from './busy'
import { BACKSTOP_PAGES, checkpointing } from './checkpoints'
import type { SqliteClient } from './client'
import {
  makeFile,
  openFailure,
  parseSqliteUrl,
  type SqliteChoice,
  type SqliteSynchronous,
  type SqliteUrl,
  syncFiles,
} from './file'
import { createGroupCommit } from './group'
import { openPoller } from './poller'
import { loadSqlite3, openSqlite3Client, sqlite3Checkpoints, sqlite3ClientOver } from './sqlite3'
import { hasTriggerAs, rewriteOlderTriggers } from './triggers'

/** The oldest SQLite the driver knows: 3.35 brought RETURNING, which every write relies on. */
export const SQLITE_MINIMUM = '3.35'

/**
 * Opens the SQLite file a `sqlite://PATH` URL names (relative to the working directory;
 * `sqlite:///abs/path` for an absolute one), creating its folder and the driver's tables.
 * It runs on the runtime's own SQLite where there is one (node:sqlite on Node 24 and later and
 * Deno, bun:sqlite on Bun), else on the sqlite3 package; `?client=sqlite3` (or `builtin`) at
 * the end of the URL chooses. On Node 22, the sqlite3 package when it is installed (its
 * node:sqlite is experimental, and says so when loaded), else node:sqlite. The file and its
 * tables are the same whichever opens it.
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
  const { path, choice, synchronous } = parseSqliteUrl(url)
  return openSqliteFile(path, { choice, synchronous }, options)
}

/** The file at `path` (absolute), as `openSqliteDriver` opens the one a URL names. */
async function openSqliteFile(
  path: string,
  { choice, synchronous }: { choice?: SqliteChoice; synchronous?: SqliteSynchronous },
  options: { namespace: string; connectTimeoutMs: number },
): Promise<StoreDriver> {
  const open = await sqliteOpener(choice, synchronous)
  try {
    await makeFile(path)
  } catch (error) {
    throw openFailure(`cannot create the SQLite file ${path}: ${(error as Error).message}`, error)
  }
  const client = await open(path).catch((error: unknown) => {
    const code = (error as { code?: string }).code ?? 'unknown error'
    throw openFailure(`cannot open the SQLite file ${path} (${code})`, error)
  })
  try {
    // WAL: a commit appends to one log file and syncs it once, where the default journal syncs
    // several files per commit (three times the adds per second). Still synchronous FULL.
    await useWriteAheadLog(client)
    // The poller's connection, opened on the first watch: another connection's commits are
    // what its data_version counts (this driver's among them).
    return await preparedDriver(client, { ...options, ownConnection: true }, () => open(path), {
      // Its commits were not synced: what they wrote is, once they are all done.
      afterClose: synchronous === 'normal' ? () => syncFiles(path) : undefined,
    })
  } catch (error) {
    await client.close().catch(() => {})
    throw error
  }
}

/**
 * The driver over a sqlite3 `Database` of the caller's, which `close()` leaves open: checks the
 * SQLite version and creates the driver's tables if missing. Several processes writing one file
 * need the busy timeout and WAL that `openSqliteDriver` sets. Each write commits on its own
 * (the connection is the caller's too: a transaction on it would hold whatever else runs there).
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
  const client = sqlite3ClientOver(db)
  return preparedDriver(client, { ...options, ownConnection: false }, async () => client)
}

async function preparedDriver(
  client: SqliteClient,
  options: { namespace: string; ownConnection: boolean },
  pollOn: () => Promise<SqliteClient>,
  { afterClose }: { afterClose?: () => Promise<void> } = {},
): Promise<StoreDriver> {
  const group = createGroupCommit(client)
  const connection: SqlConnection = {
    dialect: 'sqlite',
    // Reads run at once; every other statement is a write, committed with those beside it.
    query: (sql, parameters) =>
      READ.test(sql) ? client.query(sql, parameters) : group.write([[sql, parameters]]),
    transaction: async (steps) => {
      await group.write(steps)
    },
    openWakes: (hub, namespace) => openPoller(hub, namespace, pollOn),
    // This connection's commits, and every other connection's (data_version): a page's version
    // is read again only after a commit, on a synchronous library (the sqlite3 package's
    // data_version is a round trip through its thread pool, no cheaper than the version).
    changeClock: client.dataVersion && (() => group.commits() + (client.dataVersion?.() ?? 0)),
    // A synchronous library's calls end in this turn, a write's at the next commit, which runs
    // in one go once it has the lock (waited for up to BUSY_TIMEOUT_MS, sqlite/busy.ts): none
    // can hang, so the core sets no timer on them (a timer a call, issue 36).
    remote: client.dataVersion === undefined,
    idle: group.idle,
    close: async () => {
      await group.drained()
      await client.close()
      await afterClose?.()
    },
  }
  const [row] = await client.query('SELECT sqlite_version() AS version', [])
  checkSqliteVersion(String(row?.version))
  const schema = schemaStatements('sqlite')
  for (const statement of schema) {
    // A file an older movie-log made has the terms column added once: another opener may win.
    await client.query(statement, []).catch((error: unknown) => {
      if (!isDuplicateColumn(error)) throw error
    })
  }
  // Not on a connection of the caller's: their statements could run inside the transaction.
  if (options.ownConnection) {
    await rewriteOlderTriggers(client, schema, [
      ...OLDER_TRIGGERS,
      ...OLDER_HISTORY_TRIGGERS,
      ...OLDER_TERMS_TRIGGERS,
    ])
  }
  // Adds leave their search and statistics terms to the next read (as in memory: an add costs
  // about half as much), where the file's history records no change for counting them: on a
  // file whose triggers this driver keeps, not on a caller's connection. Reads count in the
  // rows without them on every file: another process on it may leave them.
  connection.termsOnRead = {
    adds: options.ownConnection && (await hasTriggerAs(client, SQLITE_HISTORY_OF_EDITS)),
    reads: true,
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

/**
 * Switches the file to WAL. The switch needs the file to itself, and SQLite answers SQLITE_BUSY
 * while another connection opens the same new file: the client tries again until the busy
 * timeout (`patientClient`). On a file already in WAL it is a no-op.
 */
async function useWriteAheadLog(client: SqliteClient): Promise<void> {
  await client.query('PRAGMA journal_mode = WAL', [])
}

/** Statements that only read: run at once, outside any commit. */
const READ = /^\s*SELECT\b/i

/**
 * Set on every connection: no busy timeout, since SQLite's busy handler would wait for another
 * process's lock asleep in the thread (node:sqlite's is the event loop's); the client waits on a
 * timer instead (`patientClient`, up to BUSY_TIMEOUT_MS). Sync the log at every commit (FULL:
 * a commit acknowledged survives a power cut, in WAL too; `?synchronous=normal` for a bulk
 * writer, whose files are synced when it closes), and keep the temporary b-trees of the
 * terms triggers' GROUP BY in memory: in temporary files they cost five writes for each one to
 * the database, and an add took 1.6 times as long (issue 36).
 */
const connectionSetup = (synchronous: SqliteSynchronous) => [
  'PRAGMA busy_timeout = 0',
  `PRAGMA synchronous = ${synchronous.toUpperCase()}`,
  'PRAGMA temp_store = MEMORY',
]

/**
 * Set too where checkpoints run off the commits (`checkpoints.ts`): SQLite's own, in a commit,
 * only past the backstop.
 */
const checkpointsApart = (synchronous: SqliteSynchronous) => [
  ...connectionSetup(synchronous),
  `PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES}`,
]

/**
 * How to open a file with the library chosen (see `openSqliteDriver`): loads the library now,
 * so that a missing one fails before any file is made.
 */
export async function sqliteOpener(
  choice: SqliteChoice | undefined,
  synchronous: SqliteSynchronous = 'full',
): Promise<(path: string) => Promise<SqliteClient>> {
  const preferSqlite3 =
    choice === 'sqlite3' ||
    (choice === undefined &&
      builtinSqliteWarns() &&
      (await loadSqlite3().then(
        () => true,
        () => false,
      )))
  const builtin = preferSqlite3 ? undefined : await loadBuiltinSqlite()
  if (builtin) {
    const inThread = builtinCheckpoints()
    const setup = inThread ? checkpointsApart(synchronous) : connectionSetup(synchronous)
    return async (path) => {
      const opened = builtin(path)
      // Patient from the first statement: on a new file another connection may be switching it
      // to WAL, and the setup's own statements then answer SQLITE_BUSY.
      const client = patientClient(inThread ? checkpointing(opened, () => inThread(path)) : opened)
      try {
        for (const statement of setup) await client.query(statement, [])
        return client
      } catch (error) {
        await client.close()
        throw error
      }
    }
  }
  if (choice === 'builtin') {
    throw new UnsupportedStoreError(
      'This runtime has no SQLite of its own (Node.js 22.13 or later, Bun and Deno have one): drop ?client=builtin to use the sqlite3 package',
    )
  }
  const sqlite3 = await loadSqlite3()
  return async (path) => {
    const client = await openSqlite3Client(sqlite3, path, checkpointsApart(synchronous))
    return patientClient(checkpointing(client, () => sqlite3Checkpoints(sqlite3, path)))
  }
}

/**
 * A SQLite store for `createMovieLog`: a file's path (`./data/movies.sqlite`, relative to the
 * working folder) or a `sqlite://` URL, created with its folder if missing; or a sqlite3
 * `Database` of yours, which the log's `close()` leaves open. It runs on the runtime's own
 * SQLite where there is one (see `openSqliteDriver`); `{ client: 'sqlite3' }` asks for the
 * sqlite3 package, `{ client: 'builtin' }` for the runtime's own. `{ synchronous: 'normal' }` (or
 * `?synchronous=normal`) leaves each commit unsynced and syncs the files once at `close()`, for
 * a bulk writer; a `Database` of yours keeps its own setting.
 *
 * @example
 * ```ts
 * import { createMovieLog } from 'movie-log'
 * import { sqlite } from 'movie-log/sqlite'
 *
 * const log = createMovieLog(sqlite('./data/movies.sqlite'))
 * ```
 */
export function sqlite(
  target: string | Database,
  options: { client?: SqliteChoice; synchronous?: SqliteSynchronous } = {},
): StoreAdapter {
  return {
    kind: 'sqlite',
    remote: true,
    open: async (openOptions) => {
      if (typeof target !== 'string') return sqliteDriverOver(target, openOptions)
      // A plain path is taken as it is, `?` and all: only a URL has parameters.
      const file: SqliteUrl = /^sqlite:\/\//i.test(target)
        ? parseSqliteUrl(target)
        : { path: resolve(target) }
      const choice = options.client ?? file.choice
      const synchronous = options.synchronous ?? file.synchronous
      return openSqliteFile(file.path, { choice, synchronous }, openOptions)
    },
    classifyFailure: classifySqliteFailure,
  }
}
