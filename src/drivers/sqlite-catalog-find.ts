/**
 * `find` on a SQLite catalog: candidates gathered by two index walks (the title's key itself,
 * then keys that start with it) and put in order here.
 */
import type { CatalogEntry, CatalogQuery } from '../core/catalog'
import { catalogKey, keyRangeEnd } from '../core/catalog-key'
import { imdbLinkOf } from '../core/catalog-rows'
import { NAME_KIND } from './sqlite-catalog-schema'
import type { SqliteClient } from './sqlite-client'

/** Names read from the range of keys that start with the words asked: the first ones by key. */
const PREFIX_ROWS = 200
/** Names read for the key itself: every way a title is spelt, across the years. */
const EXACT_ROWS = 500

interface NameRow {
  key: string
  kind: number
  year: number | null
  title_id: number
}

/**
 * Candidates for `query`, best first. The order, from the best: the same title (its key) and
 * year as the entry's own title; the same title and year as its original or another title; the
 * same title a year off (a festival year, a release the next January); the same title in
 * another year; then titles that start with the words, within a year first, shorter first.
 * Without a year, the years are not looked at.
 *
 * @example
 * ```ts
 * await findInCatalog(client, { title: 'the matrix', year: 1999 }, 10)
 * ```
 */
export async function findInCatalog(
  client: SqliteClient,
  query: CatalogQuery,
  limit: number,
): Promise<CatalogEntry[]> {
  const key = catalogKey(query.title)
  if (!key || limit < 1) return []
  const ranked = new Map<number, number>()
  const consider = (row: NameRow, rank: number) => {
    const before = ranked.get(row.title_id)
    if (before === undefined || rank < before) ranked.set(row.title_id, rank)
  }
  const exact = (await client.query(
    `SELECT key, kind, year, title_id FROM names WHERE key = ?1 LIMIT ${EXACT_ROWS}`,
    [key],
  )) as unknown as NameRow[]
  for (const row of exact) consider(row, exactRank(row, query.year))
  if (ranked.size < limit) {
    const longer = (await client.query(
      `SELECT key, kind, year, title_id FROM names WHERE key > ?1 AND key < ?2
        ORDER BY key LIMIT ${PREFIX_ROWS}`,
      [key, keyRangeEnd(key)],
    )) as unknown as NameRow[]
    for (const row of longer) consider(row, prefixRank(row, key, query.year))
  }
  const best = [...ranked].sort((a, b) => a[1] - b[1] || a[0] - b[0]).slice(0, limit)
  if (best.length === 0) return []
  const rows = await client.query(
    `SELECT id, title, original_title, year, runtime FROM titles WHERE id IN (${best.map(() => '?').join(', ')})`,
    best.map(([id]) => id),
  )
  const byId = new Map(rows.map((row) => [row.id as number, row]))
  return best.flatMap(([id]) => {
    const row = byId.get(id)
    return row ? [entryOf(row)] : []
  })
}

// Ranks are numbers compared whole: the tier first (thousands), then what orders within it.
function exactRank(row: NameRow, year: number | undefined): number {
  const off = year === undefined || row.year === null ? undefined : Math.abs(row.year - year)
  if (year === undefined) return row.kind * 1000
  if (off === 0) return (row.kind === NAME_KIND.title ? 0 : 1) * 1000 + row.kind
  if (off === 1) return 2000 + row.kind
  return 3000 + Math.min(off ?? 999, 999)
}

function prefixRank(row: NameRow, key: string, year: number | undefined): number {
  const near = year === undefined || (row.year !== null && Math.abs(row.year - year) <= 1)
  // "dune part two" (the words, then more words) before "dunes" (a longer word).
  const wholeWords = row.key.charAt(key.length) === ' ' ? 0 : 100
  return (near ? 4000 : 5000) + wholeWords + Math.min(row.key.length - key.length, 99)
}

function entryOf(row: Record<string, unknown>): CatalogEntry {
  return {
    imdbLink: imdbLinkOf(row.id as number),
    title: row.title as string,
    originalTitle: row.original_title as string,
    year: (row.year as number | null) ?? undefined,
    runtimeMinutes: (row.runtime as number | null) ?? undefined,
  }
}
