/**
 * A SQLite catalog file read as the core's `Catalog`. A load replaces the file by a rename
 * (`sqlite-catalog-load.ts`): each `find` looks at the file's identity, and a new file is
 * opened in place of the old one, which is closed once the questions asked of it are answered.
 */
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Catalog } from '../../core/catalog'
import { CatalogNotLoadedError } from '../../core/catalog-rows'
import { findInCatalog } from './catalog-find'
import { CATALOG_VERSION } from './catalog-schema'
import type { SqliteClient } from './client'
import { sqliteOpener } from './driver'
import type { SqliteChoice } from './file'

/** A `Catalog` that can be closed: its file's connections. */
export interface ClosableCatalog extends Catalog {
  close(): Promise<void>
}

interface Opened {
  identity: string
  client: SqliteClient
  asking: number
  replaced: boolean
}

/**
 * The catalog in the SQLite file at `path`, opened with `open` on the first question. A file
 * not there yet (no `movie-log catalog load` so far) answers `CatalogNotLoadedError`, and is read
 * as soon as one is loaded.
 *
 * @example
 * ```ts
 * const catalog = sqliteCatalogAt('./data/movies.sqlite.catalog.sqlite', await sqliteOpener(undefined))
 * await catalog.find({ title: 'The Matrix', year: 1999 })
 * ```
 */
export function sqliteCatalogAt(
  path: string,
  open: (path: string) => Promise<SqliteClient>,
): ClosableCatalog {
  let state: { identity: string; opened: Promise<Opened> } | undefined
  const release = async (opened: Opened) => {
    if (opened.replaced && opened.asking === 0) await opened.client.close()
  }
  const retire = (opened: Promise<Opened>) =>
    opened.then(
      (old) => {
        old.replaced = true
        return release(old)
      },
      () => {},
    )
  // The catalog now at the path, counted as asked until `release`: a reload in between retires
  // the old one, which closes when its last question is answered.
  const asking = async (): Promise<Opened> => {
    for (;;) {
      const identity = await identityOf(path)
      if (state?.identity !== identity) {
        const before = state
        const opened = openAt(path, identity, open)
        state = { identity, opened }
        // A failed open is tried again on the next question, not remembered.
        opened.catch(() => {
          if (state?.opened === opened) state = undefined
        })
        if (before) await retire(before.opened)
      }
      const opened = await state.opened
      if (opened.replaced) continue
      opened.asking++
      return opened
    }
  }
  return {
    async find(query, limit = 10) {
      const opened = await asking()
      try {
        return await findInCatalog(opened.client, query, limit)
      } finally {
        opened.asking--
        await release(opened)
      }
    },
    async close() {
      const before = state
      state = undefined
      if (before) await retire(before.opened)
    },
  }
}

// The file's inode and change time: a rename puts another inode at the path.
async function identityOf(path: string): Promise<string> {
  const stats = await stat(path).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'ENOENT') throw new CatalogNotLoadedError(path)
    throw error
  })
  return `${stats.dev}:${stats.ino}:${stats.ctimeMs}`
}

async function openAt(
  path: string,
  identity: string,
  open: (path: string) => Promise<SqliteClient>,
): Promise<Opened> {
  const client = await open(path)
  const rows = await client
    .query("SELECT value FROM catalog_meta WHERE name = 'version'", [])
    .catch(() => [])
  if (Number(rows[0]?.value) !== CATALOG_VERSION) {
    await client.close()
    throw new CatalogNotLoadedError(`${path} is not a catalog this movie-log reads`)
  }
  return { identity, client, asking: 0, replaced: false }
}

/**
 * The IMDb catalog in the SQLite file at `path` (one `movie-log catalog load` made), for the
 * handlers' `catalog` option. Read on the runtime's own SQLite or the sqlite3 package, as a
 * `sqlite://` store is (`{ client }` chooses). A catalog loaded again is read at once.
 *
 * @example
 * ```ts
 * import { openCatalog } from 'movie-log/sqlite'
 * import { toWebHandler } from 'movie-log/web'
 *
 * const catalog = openCatalog('./data/movies.sqlite.catalog.sqlite')
 * const handler = toWebHandler(log, { catalog })
 * ```
 */
export function openCatalog(
  path: string,
  options: { client?: SqliteChoice } = {},
): ClosableCatalog {
  const opener = sqliteOpener(options.client)
  // Not awaited here: a missing library fails the first question, as a store fails its open.
  opener.catch(() => {})
  return sqliteCatalogAt(resolve(path), async (file) => (await opener)(file))
}
