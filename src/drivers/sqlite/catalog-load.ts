/**
 * Loads an IMDb catalog into a SQLite file: built whole in a file of its own beside the target,
 * then renamed over it, so that a reader sees the old catalog or the new one, never half of one.
 */
import { open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { catalogKey } from '../../core/catalog-key'
import type { CatalogAka, CatalogTitle } from '../../core/catalog-rows'
import { CATALOG_SCHEMA, CATALOG_VERSION, NAME_KIND } from './catalog-schema'
import type { SqliteClient } from './client'
import { makeFile, makeFolder } from './file'

/** Rows sent to SQLite in one statement, as one JSON text (one parameter, parsed in C). */
const BATCH = 5000

/** What a catalog is loaded from: titles (ascending ids, as IMDb sorts them), and other titles. */
export interface CatalogSource {
  titles: AsyncIterable<CatalogTitle>
  akas?: AsyncIterable<CatalogAka>
}

/** How a load went: titles kept, names indexed (titles, original and other titles). */
export interface CatalogLoadReport {
  titles: number
  names: number
}

/**
 * Builds the catalog at `path` from `source`, replacing any catalog there in one rename.
 * Memory stays bounded: rows go to SQLite in batches, and the ids kept (to match other titles
 * with) are 4 bytes each.
 *
 * @example
 * ```ts
 * await loadSqliteCatalog('./data/movies.sqlite.catalog.sqlite', { titles, akas }, open)
 * ```
 */
export async function loadSqliteCatalog(
  path: string,
  source: CatalogSource,
  open: (path: string) => Promise<SqliteClient>,
): Promise<CatalogLoadReport> {
  await makeFolder(dirname(path))
  const building = `${path}.loading-${process.pid}`
  await removeFile(building)
  await makeFile(building)
  const report: CatalogLoadReport = { titles: 0, names: 0 }
  try {
    const client = await open(building)
    try {
      await build(client, source, report)
    } finally {
      await client.close()
    }
    await flush(building)
    await rename(building, path)
    return report
  } catch (error) {
    await removeFile(building)
    throw error
  }
}

async function build(client: SqliteClient, source: CatalogSource, report: CatalogLoadReport) {
  const run = (sql: string, parameters: unknown[] = []) => client.query(sql, parameters)
  // A file nobody reads until it is renamed: no journal, no sync until the end (`flush`).
  await run('PRAGMA journal_mode = OFF')
  await run('PRAGMA synchronous = OFF')
  for (const statement of CATALOG_SCHEMA) await run(statement)
  await run('BEGIN')
  let kept: Uint32Array = new Uint32Array(1 << 16)
  let sorted = true
  const titles: unknown[] = []
  const names: unknown[] = []
  const flushNames = async () => {
    await run(INSERT_NAMES, [JSON.stringify(names.splice(0))])
  }
  for await (const title of source.titles) {
    if (report.titles === kept.length) kept = grown(kept)
    if (report.titles > 0 && (kept[report.titles - 1] as number) >= title.id) sorted = false
    kept[report.titles++] = title.id
    titles.push([title.id, title.title, title.originalTitle, title.year, title.runtimeMinutes])
    const key = catalogKey(title.title)
    const original = catalogKey(title.originalTitle)
    if (key) names.push([key, NAME_KIND.title, title.year, title.id])
    if (original && original !== key)
      names.push([original, NAME_KIND.original, title.year, title.id])
    if (titles.length >= BATCH) await run(INSERT_TITLES, [JSON.stringify(titles.splice(0))])
    if (names.length >= BATCH) await flushNames()
  }
  if (titles.length > 0) await run(INSERT_TITLES, [JSON.stringify(titles.splice(0))])
  const ids = sorted ? kept.subarray(0, report.titles) : kept.subarray(0, report.titles).sort()
  // IMDb lists an entry's other titles together, the same one often for many regions: each
  // once per entry here; one that is the entry's own title is dropped once indexed (below).
  let akaId = -1
  const akaKeys = new Set<string>()
  for await (const aka of source.akas ?? []) {
    const key = catalogKey(aka.title)
    if (aka.id !== akaId) {
      akaId = aka.id
      akaKeys.clear()
    }
    if (!key || akaKeys.has(key) || !has(ids, aka.id)) continue
    akaKeys.add(key)
    // Its year, for the index that finds a title and year in one seek: filled in by SQL below.
    names.push([key, NAME_KIND.aka, null, aka.id])
    if (names.length >= BATCH) await flushNames()
  }
  if (names.length > 0) await flushNames()
  await run(`UPDATE names SET year = (SELECT year FROM titles WHERE id = names.title_id)
    WHERE kind = ${NAME_KIND.aka}`)
  // Indexed once at the end: faster than keeping the index sorted row by row.
  await run('CREATE INDEX names_by_key ON names (key, year, kind, title_id)')
  await run(`DELETE FROM names WHERE kind = ${NAME_KIND.aka} AND EXISTS (SELECT 1 FROM names AS own
    WHERE own.key = names.key AND own.year IS names.year AND own.kind < ${NAME_KIND.aka}
      AND own.title_id = names.title_id)`)
  const [counted] = await run('SELECT count(*) AS names FROM names')
  report.names = Number(counted?.names)
  await run('INSERT INTO catalog_meta (name, value) VALUES (?1, ?2), (?3, ?4)', [
    'version',
    String(CATALOG_VERSION),
    'titles',
    String(report.titles),
  ])
  await run('COMMIT')
}

const INSERT_TITLES = `INSERT INTO titles (id, title, original_title, year, runtime)
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
    json_extract(value, '$[3]'), json_extract(value, '$[4]') FROM json_each(?1)`

const INSERT_NAMES = `INSERT INTO names (key, kind, year, title_id)
  SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
    json_extract(value, '$[3]') FROM json_each(?1)`

function grown(ids: Uint32Array): Uint32Array {
  const more = new Uint32Array(ids.length * 2)
  more.set(ids)
  return more
}

/** Whether the sorted `ids` hold `id` (a binary search: the ids of a few hundred thousand titles). */
function has(ids: Uint32Array, id: number): boolean {
  let low = 0
  let high = ids.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const at = ids[middle] as number
    if (at === id) return true
    if (at < id) low = middle + 1
    else high = middle - 1
  }
  return false
}

/** The built file on disk before it is renamed in: SQLite did not sync it (`synchronous = OFF`). */
async function flush(path: string): Promise<void> {
  const file = await open(path, 'r+')
  try {
    await file.datasync()
  } finally {
    await file.close()
  }
}

async function removeFile(path: string): Promise<void> {
  await Promise.all([rm(path, { force: true }), rm(`${path}-journal`, { force: true })])
}
