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
