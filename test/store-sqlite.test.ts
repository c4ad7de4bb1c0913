import { join } from 'node:path'
import KeyvSqlite from '@keyv/sqlite'
import { openSqliteDriver } from '../src/drivers/sqlite'
import { keyvBackend } from './_backends'
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

// A user's own @keyv/sqlite adapter: it documents no ordered range or compare-and-set, so it
// gets the scan driver, one adapter per diary in this process.
const scanned = keyvBackend(
  'SQLite through a @keyv/sqlite adapter (the scan)',
  () => new KeyvSqlite(`sqlite://${join(folder, 'keyv.sqlite')}`),
  // A file in a folder that does not exist cannot be opened.
  () => new KeyvSqlite(`sqlite://${join(folder, 'no-such-folder', 'movies.sqlite')}`),
  { shared: true },
)
describeStoreSuite(scanned)
// The scan keeps its history in this process: the changes made through this adapter.
describeWatchSuite(scanned, {}, { bound: false })

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
