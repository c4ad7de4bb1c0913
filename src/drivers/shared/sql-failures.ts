/**
 * The SQL drivers' failure classifiers: which errors of node-sqlite3 and of pg are the store
 * failing, and why. Any other error (bad SQL, a constraint, a bug) is no store failure.
 */
import type { StoreFailure } from '../../core/errors'
import { classifyChain, codes, errnoFailure, type FailureCodes } from './failures'

// SQLite result codes that are the file or the disk failing, or another writer holding the lock
// past the busy timeout. Not SQLITE_ERROR (bad SQL), CONSTRAINT, MISMATCH, RANGE: bugs.
const SQLITE_FAILURES =
  /^SQLITE_(BUSY|LOCKED|FULL|READONLY|CANTOPEN|IOERR|PERM|NOMEM|PROTOCOL|CORRUPT|NOTADB|AUTH|INTERRUPT)/
const SQLITE_REASONS: FailureCodes = {}
codes(SQLITE_REASONS, 'unreachable', 'SQLITE_CANTOPEN')
codes(SQLITE_REASONS, 'disk-full', 'SQLITE_FULL')
codes(SQLITE_REASONS, 'read-only', 'SQLITE_READONLY')
codes(SQLITE_REASONS, 'busy', 'SQLITE_BUSY SQLITE_LOCKED')

// PostgreSQL SQLSTATE classes: 08 connection, 53 resources (disk, memory, connections), 57
// operator intervention (shutdown, cancelled), 28 authorisation, 3D no such database, 58 the
// server's own I/O; and the single states of a busy or read-only store. Not 42 (syntax, no such
// column) nor 23 (a constraint): bugs.
const POSTGRES_FAILURES = /^(08|53|57|28|3D|58)[0-9A-Z]{3}$|^(40001|40P01|55P03|25006)$/
const POSTGRES_REASONS: FailureCodes = {}
codes(POSTGRES_REASONS, 'unreachable', '08000 08001 08003 08004 08006 57P01 57P02 57P03')
codes(POSTGRES_REASONS, 'timeout', '57014')
codes(POSTGRES_REASONS, 'too-many-connections', '53300')
codes(POSTGRES_REASONS, 'disk-full', '53100')
codes(POSTGRES_REASONS, 'read-only', '25006')
codes(POSTGRES_REASONS, 'auth-failed', '28000 28P01')
codes(POSTGRES_REASONS, 'busy', '40001 40P01 55P03')

// What pg says, with no code, when a connection dies or never comes, or its pool was ended.
const PG_MESSAGES: [RegExp, StoreFailure['reason']][] = [
  // The pool's wait for a connection; the pool's bound on connecting; a client's own bound.
  [/timeout exceeded when trying to connect|connection timeout|^timeout expired$/i, 'timeout'],
  [/too many (clients|connections)/i, 'too-many-connections'],
  [
    /connection terminated|cannot use a pool after calling end|client was closed and is not queryable|client has encountered a connection error|connection ended/i,
    'unreachable',
  ],
]

/**
 * The SQLite driver's classifier: node-sqlite3's result codes for the file or disk failing or
 * a lock held too long, a database used after it was closed, and Node's errnos.
 *
 * @example
 * ```ts
 * classifySqliteFailure(Object.assign(new Error('database is full'), { code: 'SQLITE_FULL' }))
 * // { reason: 'disk-full', code: 'SQLITE_FULL' }
 * ```
 */
export function classifySqliteFailure(error: unknown): StoreFailure | undefined {
  return classifyChain(error, (candidate) => {
    const { code } = candidate as { code?: unknown }
    if (typeof code === 'string' && SQLITE_FAILURES.test(code))
      return { reason: SQLITE_REASONS[code] ?? 'unknown', code }
    // node-sqlite3's closed database: SQLITE_MISUSE, which is otherwise a bug.
    if (
      (code === undefined || code === 'SQLITE_MISUSE') &&
      /database is closed/i.test(candidate.message)
    )
      return { reason: 'unreachable', code: typeof code === 'string' ? code : undefined }
    return errnoFailure(candidate)
  })
}

/**
 * The PostgreSQL driver's classifier: pg's SQLSTATEs for a connection, resources,
 * authorisation or a shutdown, its messages for a connection lost or a pool ended, and Node's
 * errnos.
 *
 * @example
 * ```ts
 * classifyPostgresFailure(Object.assign(new Error('too many'), { code: '53300' }))
 * // { reason: 'too-many-connections', code: '53300' }
 * ```
 */
export function classifyPostgresFailure(error: unknown): StoreFailure | undefined {
  return classifyChain(error, (candidate) => {
    const { code } = candidate as { code?: unknown }
    if (typeof code === 'string' && POSTGRES_FAILURES.test(code))
      return { reason: POSTGRES_REASONS[code] ?? 'unknown', code }
    if (typeof code !== 'string' || code === '') {
      const reason = PG_MESSAGES.find(([pattern]) => pattern.test(candidate.message))?.[1]
      if (reason) return { reason }
    }
    return errnoFailure(candidate)
  })
}

// What D1 says (in its message, after `D1_ERROR: `) when the database's Durable Object or the
// way to it fails, per Cloudflare's list of D1_ERRORs whose recommended action is a retry, and
// when it is full. D1_TYPE_ERROR, D1_COLUMN_NOTFOUND, a syntax error, a constraint and `not
// authorized` (SQLITE_AUTH: a function or pragma D1 refuses) are bugs.
const D1_MESSAGES: [RegExp, StoreFailure['reason']][] = [
  [/storage operation exceeded timeout|queued for too long/i, 'timeout'],
  [
    /network connection lost|transient issue on remote node|reset because its code was updated|storage caused object to be reset|client disconnected/i,
    'unreachable',
  ],
  [
    /D1 DB is overloaded|too many requests queued|exceeded its (CPU time|memory) limit|too many API requests by single worker invocation/i,
    'busy',
  ],
  [/exceeded maximum DB size/i, 'disk-full'],
]
// The SQLite result code D1 quotes at the end of its message (`…: SQLITE_BUSY`).
const D1_SQLITE_CODE = /\bSQLITE_[A-Z]+\b/

/**
 * The D1 driver's classifier: D1's messages for its database being reset, unreachable,
 * overloaded or full, and the SQLite result codes it quotes for the file failing or locked
 * (as SQLite's, but SQLITE_AUTH: on D1, a statement it does not allow, a bug).
 *
 * @example
 * ```ts
 * classifyD1Failure(new Error('D1_ERROR: Network connection lost.'))
 * // { reason: 'unreachable', code: 'D1_ERROR' }
 * ```
 */
export function classifyD1Failure(error: unknown): StoreFailure | undefined {
  return classifyChain(error, (candidate) => {
    const { message } = candidate
    const code = /^(D1_[A-Z_]+)/.exec(message)?.[1]
    const reason = D1_MESSAGES.find(([pattern]) => pattern.test(message))?.[1]
    if (reason) return { reason, code }
    const sqlite = D1_SQLITE_CODE.exec(message)?.[0]
    if (sqlite && sqlite !== 'SQLITE_AUTH' && SQLITE_FAILURES.test(sqlite))
      return { reason: SQLITE_REASONS[sqlite] ?? 'unknown', code: sqlite }
    return errnoFailure(candidate)
  })
}
