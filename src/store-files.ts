/**
 * The files a store URL keeps the log in, absolute: a `sqlite://` file and the journal files
 * SQLite keeps beside it (`-wal`, `-shm`, `-journal`); none for a store on a server or in memory.
 * For the command, which must never write over them (`export --out`).
 */
export async function storeFilesOf(url: string): Promise<string[]> {
  if (!/^sqlite:\/\//i.test(url)) return []
  const { parseSqliteUrl } = await import('./drivers/sqlite/file')
  const { path } = parseSqliteUrl(url)
  return [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]
}

/**
 * Where the IMDb catalog of a store is kept: the SQLite file `MOVIE_LOG_CATALOG` names, else
 * beside a SQLite diary (`<diary>.catalog.sqlite`); `undefined` for a store on a server (a
 * PostgreSQL or Redis diary needs `MOVIE_LOG_CATALOG`).
 */
export async function catalogFileOf(
  url: string,
  env: Record<string, string | undefined> = process.env,
): Promise<string | undefined> {
  const { resolve } = await import('node:path')
  if (env.MOVIE_LOG_CATALOG) return resolve(env.MOVIE_LOG_CATALOG)
  const [diary] = await storeFilesOf(url)
  return diary === undefined ? undefined : `${diary}.catalog.sqlite`
}

/**
 * Loads IMDb's rows into the catalog file at `path`, replacing it whole (see
 * `loadSqliteCatalog`), on the runtime's own SQLite or the sqlite3 package.
 */
export async function loadCatalogFile(
  path: string,
  source: import('./drivers/sqlite/catalog-load').CatalogSource,
): Promise<import('./drivers/sqlite/catalog-load').CatalogLoadReport> {
  const [{ loadSqliteCatalog }, { sqliteOpener }] = await Promise.all([
    import('./drivers/sqlite/catalog-load'),
    import('./drivers/sqlite/driver'),
  ])
  return loadSqliteCatalog(path, source, await sqliteOpener(undefined))
}

/**
 * The catalog of the store at `url` (see `catalogFileOf`), opened, or `undefined` for a store
 * that keeps none: read on each question, so one loaded later is used at once.
 */
export async function openCatalogOf(
  url: string,
  env: Record<string, string | undefined> = process.env,
): Promise<import('./drivers/sqlite/catalog').ClosableCatalog | undefined> {
  const path = await catalogFileOf(url, env)
  if (path === undefined) return undefined
  const { openCatalog } = await import('./drivers/sqlite/catalog')
  return openCatalog(path)
}
