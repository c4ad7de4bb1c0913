// Issue 26: only the store failing becomes a 503; a bug in SQL (42xxx, 23xxx, SQLITE_ERROR) or in
// the code is a 500. And a database the SQL drivers do not know is refused at open, named.
import { describe, expect, it } from 'vitest'
import { UnsupportedStoreError } from '../src/core/errors'
import { checkPostgresVersion } from '../src/drivers/postgres/driver'
import { classifyPostgresFailure, classifySqliteFailure } from '../src/drivers/shared/sql-failures'
import { checkSqliteVersion } from '../src/drivers/sqlite/driver'

// Either SQL driver's classifier recognises it.
const isSqlStoreFailure = (error: unknown) =>
  (classifySqliteFailure(error) ?? classifyPostgresFailure(error)) !== undefined

const coded = (code: string, message = 'failed') => Object.assign(new Error(message), { code })

describe('the SQL classifiers', () => {
  it.each([
    ['SQLite busy past the timeout', coded('SQLITE_BUSY', 'SQLITE_BUSY: database is locked')],
    ['SQLite disk full', coded('SQLITE_FULL')],
    ['SQLite read-only', coded('SQLITE_READONLY')],
    ['SQLite cannot open', coded('SQLITE_CANTOPEN')],
    ['SQLite I/O error', coded('SQLITE_IOERR')],
    ['SQLite closed', coded('SQLITE_MISUSE', 'SQLITE_MISUSE: Database is closed')],
    ['refused', coded('ECONNREFUSED')],
    ['unknown host', coded('ENOTFOUND')],
    ['PostgreSQL shutting down', coded('57P01')],
    ['PostgreSQL too many connections', coded('53300')],
    ['PostgreSQL disk full', coded('53100')],
    ['PostgreSQL connection failure', coded('08006')],
    ['PostgreSQL password refused', coded('28P01')],
    ['PostgreSQL no such database', coded('3D000')],
    ['PostgreSQL deadlock', coded('40P01')],
    ['pg: a connection ended', new Error('Connection terminated unexpectedly')],
    ['pg: no connection in time', new Error('timeout exceeded when trying to connect')],
    ['pg: a connection not made in time', new Error('timeout expired')],
    ['pg: an ended pool', new Error('Cannot use a pool after calling end on the pool')],
    ['a failure kept as the cause', new Error('query failed', { cause: coded('ECONNRESET') })],
    ['every address refused', new AggregateError([coded('ECONNREFUSED')], 'connect failed')],
  ])('is true for %s', (_what, error) => {
    expect(isSqlStoreFailure(error)).toBe(true)
  })

  it.each([
    ['a SQL syntax error', coded('42601')],
    ['no such column', coded('42703')],
    ['a unique violation', coded('23505')],
    ['a SQLite syntax error', coded('SQLITE_ERROR', 'SQLITE_ERROR: near "SELEC": syntax error')],
    ['a SQLite constraint', coded('SQLITE_CONSTRAINT')],
    ['a SQLite misuse that is not a closed database', coded('SQLITE_MISUSE', 'bad parameter')],
    ['a Node misuse', coded('ERR_INVALID_ARG_TYPE')],
    ['a TypeError, even with a store’s words', new TypeError('Connection terminated')],
    ['an error with no code', new Error('something else')],
    ['not an error', 'ECONNREFUSED'],
  ])('is false for %s', (_what, error) => {
    expect(isSqlStoreFailure(error)).toBe(false)
  })
})

describe('the SQL drivers’ version checks', () => {
  it('refuses a SQLite without RETURNING, naming the version found and the one needed', () => {
    for (const version of ['3.34.1', '3.9.2', '2.8.17']) {
      const refusal = () => checkSqliteVersion(version)
      expect(refusal).toThrow(UnsupportedStoreError)
      expect(refusal).toThrow(`SQLite ${version} is too old for movie-log: it needs SQLite 3.35`)
    }
    for (const version of ['3.35.0', '3.35', '3.44.2', '3.100.0', '4.0.0']) {
      expect(() => checkSqliteVersion(version)).not.toThrow()
    }
  })

  it('refuses a PostgreSQL older than 12, naming the version found and the one needed', () => {
    const refusal = () => checkPostgresVersion(110022, '11.22 (Debian 11.22-1)')
    expect(refusal).toThrow(UnsupportedStoreError)
    expect(refusal).toThrow(
      'PostgreSQL 11.22 (Debian 11.22-1) is too old for movie-log: it needs PostgreSQL 12 or later',
    )
    expect(() => checkPostgresVersion(Number.NaN, 'unknown')).toThrow(UnsupportedStoreError)
    for (const number of [120000, 150020, 180001]) {
      expect(() => checkPostgresVersion(number, String(number))).not.toThrow()
    }
  })
})
