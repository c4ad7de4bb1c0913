import { isProgrammingError } from '../core/driver'

// SQLite result codes that are the file or the disk failing, or another writer holding the lock
// past the busy timeout. Not SQLITE_ERROR (bad SQL), CONSTRAINT, MISMATCH, RANGE: bugs.
const SQLITE_FAILURES =
  /^SQLITE_(BUSY|LOCKED|FULL|READONLY|CANTOPEN|IOERR|PERM|NOMEM|PROTOCOL|CORRUPT|NOTADB|AUTH|INTERRUPT)/

// PostgreSQL SQLSTATE classes: 08 connection, 53 resources (disk, memory, connections), 57
// operator intervention (shutdown, cancelled), 28 authorisation, 3D no such database, 58 the
// server's own I/O; and the single states of a busy or read-only store. Not 42 (syntax, no such
// column) nor 23 (a constraint): bugs.
const POSTGRES_FAILURES = /^(08|53|57|28|3D|58)[0-9A-Z]{3}$|^(40001|40P01|55P03|25006)$/

// What pg says, with no code, when a connection dies or never comes, or its pool was ended;
// and node-sqlite3 when its database was closed (SQLITE_MISUSE, otherwise a bug).
const FAILURE_MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|cannot use a pool after calling end|client was closed and is not queryable|client has encountered a connection error|connection ended|database is closed/i

/**
 * Whether an error from sqlite3 or pg is the store failing (unreachable, refused, out of disk,
 * locked, closed) rather than a bug: the error, its causes, and the errors it gathers are read.
 *
 * @example
 * ```ts
 * isSqlStoreFailure(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })) // true
 * isSqlStoreFailure(Object.assign(new Error('syntax error'), { code: '42601' })) // false
 * ```
 */
export function isSqlStoreFailure(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || isProgrammingError(error) || depth > 4) return false
  const { code } = error as { code?: unknown }
  if (typeof code === 'string') {
    if (SQLITE_FAILURES.test(code) || POSTGRES_FAILURES.test(code)) return true
    // Node's own errnos (ECONNREFUSED, ETIMEDOUT, ENOSPC, EACCES ...), never its ERR_* misuses.
    if (/^E[A-Z]+$/.test(code)) return true
    if (code !== 'SQLITE_MISUSE') return false
  }
  if (FAILURE_MESSAGES.test(error.message)) return true
  const inner = error instanceof AggregateError ? error.errors : []
  return [...inner, error.cause].some((cause) => isSqlStoreFailure(cause, depth + 1))
}
