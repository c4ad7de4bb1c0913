/**
 * A `SqliteClient` over the sqlite3 package (node-sqlite3, a native addon): for Node before
 * 22.13, or where a user asks for it (`sqlite://PATH?client=sqlite3`).
 */
import type { Database, Statement } from 'sqlite3'
import { importPeer } from '../shared/peer'
import { whenFree } from './busy'
import type { CheckpointRunner } from './checkpoints'
import {
  runCommit,
  type SqliteClient,
  type SqlStep,
  type SqlWrite,
  type WriteOutcome,
} from './client'

type Rows = Record<string, unknown>[]

/** Loads the sqlite3 package (an optional peer), or raises the error that says to install it. */
export async function loadSqlite3(): Promise<typeof import('sqlite3')> {
  // sqlite3 is CommonJS: Node gives its exports as the default export, which its types omit.
  const { default: sqlite3 } = await importPeer('sqlite3', 'sqlite://', async () => ({
    default: ((await import('sqlite3')) as unknown as { default: typeof import('sqlite3') })
      .default,
  }))
  return sqlite3
}

/** Opens one sqlite3 connection to `path`; rejects with the open's own error. */
export function openDatabase(sqlite3: typeof import('sqlite3'), path: string): Promise<Database> {
  return new Promise<Database>((done, fail) => {
    const opened: Database = new sqlite3.Database(path, (error) =>
      error ? fail(error) : done(opened),
    )
  })
}

/**
 * The client on two connections of its own: commits on one, reads on the other. A read never
 * runs inside a commit's open transaction (sqlite3 queues every call of a connection on it), so
 * it never sees a write before that write is on disk, nor waits for the disk. Each connection
 * keeps its statements prepared, as node:sqlite's client does: preparing one anew each call
 * (compiling the triggers of an insert among them) made a statement cost three times as much,
 * and a commit of an import's 64 adds held the write lock for 17 ms instead of 5 (issue 55).
 */
export function sqlite3Client(writer: Database, reader: Database): SqliteClient {
  const [writes, reads] = [preparedOn(writer), preparedOn(reader)]
  return {
    name: 'sqlite3',
    query: reads.all,
    commit: (batch, holdMs) => runCommit(batch, writes.all, holdMs),
    close: async () => {
      await Promise.all([writes.finalize(), reads.finalize()])
      await Promise.all([closeDatabase(writer), closeDatabase(reader)])
    },
  }
}

/**
 * Runs statements on `db`, each prepared on its first call and kept: sqlite3 runs the calls of
 * one statement one after another, and resets it before each. `finalize` ends them all, which
 * `close` needs (SQLite refuses to close a connection with statements left).
 */
function preparedOn(db: Database) {
  const statements = new Map<string, Promise<Statement>>()
  const prepare = (sql: string) =>
    new Promise<Statement>((done, fail) => {
      // Awaited before the first call: sqlite3 drops, unanswered, the calls queued on a
      // statement that fails to prepare.
      const statement: Statement = db.prepare(sql, (error) =>
        error ? fail(error) : done(statement),
      )
    })
  return {
    all: async (sql: string, parameters: readonly unknown[]): Promise<Rows> => {
      let prepared = statements.get(sql)
      if (!prepared) {
        prepared = prepare(sql)
        statements.set(sql, prepared)
        // Not kept: the next call prepares it again (a lock, say, may be gone by then).
        prepared.catch(() => statements.get(sql) === prepared && statements.delete(sql))
      }
      const statement = await prepared
      return new Promise((done, fail) => {
        statement.all<Record<string, unknown>>([...parameters], (error, rows) =>
          error ? fail(error) : done(rows),
        )
      })
    },
    finalize: async () => {
      const left = await Promise.allSettled(statements.values())
      statements.clear()
      await Promise.all(
        left.map((each) =>
          each.status === 'fulfilled' ? new Promise((done) => each.value.finalize(done)) : null,
        ),
      )
    },
  }
}

/**
 * The client on a caller's one connection, which may be in use elsewhere: each write runs on
 * its own, committed by itself (a transaction here would hold whatever else runs on it).
 */
export function sqlite3ClientOver(db: Database): SqliteClient {
  return {
    name: 'sqlite3',
    query: (sql, parameters) => all(db, sql, parameters),
    commit: async (writes) => Promise.all(writes.map((steps) => separately(db, steps))),
    close: async () => {},
  }
}

async function separately(db: Database, steps: SqlWrite): Promise<WriteOutcome> {
  try {
    let rows: Rows = []
    for (const step of steps) rows = await all(db, ...step)
    return { ok: true, rows }
  } catch (error) {
    return { ok: false, error }
  }
}

function all(db: Database, sql: SqlStep[0], parameters: SqlStep[1]): Promise<Rows> {
  return new Promise((done, fail) => {
    db.all<Record<string, unknown>>(sql, parameters, (error, rows) =>
      error ? fail(error) : done(rows),
    )
  })
}

export function closeDatabase(db: Database): Promise<void> {
  return new Promise((done, fail) => db.close((error) => (error ? fail(error) : done())))
}

/**
 * Checkpoints of the file at `path` on a sqlite3 connection of their own: on sqlite3's thread
 * pool, beside the client's two (`checkpoints.ts`).
 */
export async function sqlite3Checkpoints(
  sqlite3: typeof import('sqlite3'),
  path: string,
): Promise<CheckpointRunner> {
  const db = await openDatabase(sqlite3, path)
  return {
    checkpoint: async () => {
      await all(db, 'PRAGMA wal_checkpoint(PASSIVE)', [])
    },
    close: () => closeDatabase(db),
  }
}

/**
 * Opens the client's two connections to `path`, each set up with `setup` (statements such as
 * the busy timeout, which hold per connection); rejects with the open's own error.
 */
export async function openSqlite3Client(
  sqlite3: typeof import('sqlite3'),
  path: string,
  setup: readonly string[],
): Promise<SqliteClient> {
  const opened: Database[] = []
  try {
    for (let count = 0; count < 2; count++) {
      const db = await openDatabase(sqlite3, path)
      opened.push(db)
      // Tried again while another connection switches a new file to WAL (SQLITE_BUSY).
      for (const statement of setup) await whenFree(() => all(db, statement, []))
    }
  } catch (error) {
    await Promise.all(opened.map((db) => closeDatabase(db).catch(() => {})))
    throw error
  }
  const [writer, reader] = opened as [Database, Database]
  return sqlite3Client(writer, reader)
}
