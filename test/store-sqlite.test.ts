import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import KeyvSqlite from '@keyv/sqlite'
import { urlBackend } from './_backends'
import { describeStoreSuite } from './_store-suite'

const folder = mkdtempSync(join(tmpdir(), 'movie-log-sqlite-'))

describeStoreSuite(
  urlBackend(
    'SQLite (temp file)',
    `sqlite://${join(folder, 'movies.sqlite')}`,
    // A file in a folder that does not exist cannot be opened.
    () => new KeyvSqlite(`sqlite://${join(folder, 'no-such-folder', 'movies.sqlite')}`),
  ),
)
