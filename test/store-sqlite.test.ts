import { join } from 'node:path'
import { openSqliteDriver } from '../src/drivers/sqlite'
import { describeDriverSuite } from './_driver-suite'
import { describeOwnerSuite } from './_driver-suite-owners'
import { describeStoreSuite } from './_store-suite'
import { describeWatchSuite } from './_store-suite-watch'
import { tempFolders } from './_temp'
import { storeUrlBackend } from './_url-backend'

const tempFolder = tempFolders()

const folder = tempFolder('movie-log-sqlite-')
const url = `sqlite://${join(folder, 'movies.sqlite')}`
const openDriver = (namespace: string) =>
  openSqliteDriver(url, { namespace, connectTimeoutMs: 1000 })

// The scan over a user's own @keyv/sqlite adapter: test/ci/store-sqlite-scan.test.ts.

// The store URL: the SQLite driver on the sqlite3 package.
const { backend, suite } = storeUrlBackend({
  name: 'SQLite (temp file)',
  url,
  // A folder where the file should be: SQLite cannot open it.
  unreachableUrl: `sqlite://${folder}`,
})
describeStoreSuite({ ...backend, openDriver }, suite)
// The history in the file (issue 29): `createMovieLog(url)` and `createMovieLogs(url)`.
describeWatchSuite(backend)
describeDriverSuite('SQLite, an owner named', openDriver, 'alice:{x}')
describeOwnerSuite('SQLite', openDriver)
