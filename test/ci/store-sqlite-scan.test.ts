import { join } from 'node:path'
import KeyvSqlite from '@keyv/sqlite'
import { keyvBackend } from '../_backends'
import { describeStoreSuite } from '../_store-suite'
import { describeWatchSuite } from '../_store-suite-watch'
import { tempFolders } from '../_temp'

// CI's: the scan pages by reading the whole diary, so its 250-movie walks take seconds here.
// Every `npm test` runs the scan driver over a Map (store-memory.test.ts, keyv6.test.ts) and
// SQLite by its URL (store-sqlite.test.ts).
const folder = tempFolders()('movie-log-sqlite-scan-')

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
