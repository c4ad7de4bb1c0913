import { join } from 'node:path'
import KeyvSqlite from '@keyv/sqlite'
import { urlBackend } from './_backends'
import { describeStoreSuite } from './_store-suite'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()

const folder = tempFolder('movie-log-sqlite-')

describeStoreSuite(
  urlBackend(
    'SQLite (temp file)',
    `sqlite://${join(folder, 'movies.sqlite')}`,
    // A file in a folder that does not exist cannot be opened.
    () => new KeyvSqlite(`sqlite://${join(folder, 'no-such-folder', 'movies.sqlite')}`),
  ),
)
