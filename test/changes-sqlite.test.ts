// Issue 29: the SQLite driver's change history, and its poller waking other processes' watchers.
import { join } from 'node:path'
import { openSqliteDriver } from '../src/drivers/sqlite'
import { describeChangeSuite } from './_change-conformance'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()
const url = `sqlite://${join(tempFolder('movie-log-changes-'), 'movies.sqlite')}`

describeChangeSuite(
  'SQLite',
  (namespace) => openSqliteDriver(url, { namespace, connectTimeoutMs: 1000 }),
  { bound: 1000, keptAtMost: 1000, url },
)
