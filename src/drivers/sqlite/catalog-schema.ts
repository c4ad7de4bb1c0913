/**
 * The tables of a SQLite catalog file. `titles` holds one row per IMDb entry; `names` one per
 * way to ask for it (its title, its original title, its other titles), by normalised key
 * (`catalogKey`) and year, so that "this title, this year" is one index seek and "titles that
 * start with these words" one index range.
 */

/** Changed when the tables change: a catalog of another version is loaded again. */
export const CATALOG_VERSION = 1

/** Which of an entry's titles a name is: the better the lower. */
export const NAME_KIND = { title: 0, original: 1, aka: 2 } as const

export const CATALOG_SCHEMA = [
  `CREATE TABLE titles (
    id INTEGER PRIMARY KEY,
    title TEXT NOT NULL,
    original_title TEXT NOT NULL,
    year INTEGER,
    runtime INTEGER
  )`,
  `CREATE TABLE names (
    key TEXT NOT NULL,
    kind INTEGER NOT NULL,
    year INTEGER,
    title_id INTEGER NOT NULL
  )`,
  'CREATE TABLE catalog_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)',
]
