import { join } from 'node:path'
import { openSqliteDriver } from '../src/drivers/sqlite/driver'
import { describeDriverSuite } from './_driver-suite'
import { describeOwnerSuite } from './_driver-suite-owners'
import { sqliteClients, sqliteUrl } from './_sqlite-clients'
import { describeStoreSuite } from './_store-suite'
import { describeWatchSuite } from './_store-suite-watch'
import { tempFolders } from './_temp'
import { storeUrlBackend } from './_url-backend'

const tempFolder = tempFolders()

// The store URL, on each library this runtime has (node:sqlite, bun:sqlite, sqlite3).
for (const client of sqliteClients) {
  const folder = tempFolder('movie-log-sqlite-')
  const url = sqliteUrl(join(folder, 'movies.sqlite'), client)
  const openDriver = (namespace: string) =>
    openSqliteDriver(url, { namespace, connectTimeoutMs: 1000 })

  // The scan over a user's own @keyv/sqlite adapter: test/ci/store-sqlite-scan.test.ts.

  const { backend, suite } = storeUrlBackend({
    name: `SQLite on ${client} (temp file)`,
    url,
    // A folder where the file should be: SQLite cannot open it.
    unreachableUrl: sqliteUrl(folder, client),
  })
  describeStoreSuite({ ...backend, openDriver }, suite)
  // The history in the file (issue 29): `createMovieLog(url)` and `createMovieLogs(url)`.
  describeWatchSuite(backend)
  describeDriverSuite(`SQLite on ${client}, an owner named`, openDriver, 'alice:{x}')
  describeOwnerSuite(`SQLite on ${client}`, openDriver)
}
