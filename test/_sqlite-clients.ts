/**
 * The libraries a `sqlite://` store can run on in this runtime, each the value of the URL's
 * `?client=`: the runtime's own SQLite where it has one (node:sqlite on Node 22.13 and later,
 * bun:sqlite), and the sqlite3 package, which the tests install. The SQLite suites run on each.
 */
const NODE_SQLITE = 'node:sqlite'

export const sqliteClients: ('builtin' | 'sqlite3')[] = [
  ...((await import(NODE_SQLITE).then(
    () => ['builtin'],
    () => [],
  )) as 'builtin'[]),
  'sqlite3',
]

/** The `sqlite://` URL of `file` on `client`. */
export const sqliteUrl = (file: string, client: string) => `sqlite://${file}?client=${client}`
