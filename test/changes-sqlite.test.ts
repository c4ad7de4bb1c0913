// Issue 29: the SQLite driver's change history, and its poller waking other processes' watchers.
import { join } from 'node:path'
import { openSqliteDriver } from '../src/drivers/sqlite/driver'
import { describeChangeSuite } from './_change-conformance'
import { sqliteClients, sqliteUrl } from './_sqlite-clients'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()

for (const client of sqliteClients) {
  const url = sqliteUrl(join(tempFolder('movie-log-changes-'), 'movies.sqlite'), client)
  describeChangeSuite(
    `SQLite on ${client}`,
    (namespace) => openSqliteDriver(url, { namespace, connectTimeoutMs: 1000 }),
    { bound: 1000, keptAtMost: 1000, url, commitsTogether: true },
  )
}
