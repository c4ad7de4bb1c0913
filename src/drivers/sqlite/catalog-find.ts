/**
 * `find` on a SQLite catalog: candidates gathered by two index walks (the title's key itself,
 * then keys that start with it) and put in order here.
 */
import type { CatalogQuery } from '../../core/catalog'
import { catalogKey, keyRangeEnd } from '../../core/catalog-key'
import type { CatalogMatchKind, MatchedCatalogEntry } from '../../core/catalog-match'
import { imdbLinkOf } from '../../core/catalog-rows'
import { NAME_KIND } from './catalog-schema'
import type { SqliteClient } from './client'

/** Names read from the range of keys that start with the words asked: the first ones by key. */
const PREFIX_ROWS = 200
/** Names read for the key itself: the entries of one title, across the years. */
const EXACT_ROWS = 200

// The `match` of a name's kind (NAME_KIND), by its number.
const KINDS: CatalogMatchKind[] = ['title', 'original', 'aka']

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
): Promise<MatchedCatalogEntry[]> {
  const key = catalogKey(query.title)
  if (!key || limit < 1) return []
  const ranked = new Map<number, { rank: number; match: CatalogMatchKind }>()
  const consider = (row: NameRow, rank: number) => {
    const before = ranked.get(row.title_id)
    if (before !== undefined && before.rank <= rank) return
    const match = row.key === key ? (KINDS[row.kind] ?? 'aka') : 'start'
    ranked.set(row.title_id, { rank, match })
  }
  const names = (sql: string, parameters: unknown[]) =>
    client.query(sql, parameters) as unknown as Promise<NameRow[]>
  // The title in the year asked (one seek, however many entries share the title), then the title
  // in any year, then longer titles: each walk only when the ones before left room.
  if (query.year !== undefined) {
    const near = await names(
      `SELECT key, kind, year, title_id FROM names WHERE key = ?1 AND year BETWEEN ?2 AND ?3
        LIMIT ${EXACT_ROWS}`,
      [key, query.year - 1, query.year + 1],
    )
    for (const row of near) consider(row, exactRank(row, query.year))
  }
  if (ranked.size < limit) {
    const exact = await names(
      `SELECT key, kind, year, title_id FROM names WHERE key = ?1 LIMIT ${EXACT_ROWS}`,
      [key],
    )
    for (const row of exact) consider(row, exactRank(row, query.year))
  }
  if (ranked.size < limit) {
    const longer = await names(
      `SELECT key, kind, year, title_id FROM names WHERE key > ?1 AND key < ?2
        ORDER BY key LIMIT ${PREFIX_ROWS}`,
      [key, keyRangeEnd(key)],
    )
    for (const row of longer) consider(row, prefixRank(row, key, query.year))
  }
  const best = [...ranked].sort((a, b) => a[1].rank - b[1].rank || a[0] - b[0]).slice(0, limit)
  if (best.length === 0) return []
  const rows = await client.query(
    `SELECT id, title, original_title, year, runtime FROM titles WHERE id IN (${best.map(() => '?').join(', ')})`,
    best.map(([id]) => id),
  )
  const byId = new Map(rows.map((row) => [row.id as number, row]))
  return best.flatMap(([id, { match }]) => {
    const row = byId.get(id)
    return row ? [entryOf(row, match)] : []
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

function entryOf(row: Record<string, unknown>, match: CatalogMatchKind): MatchedCatalogEntry {
  return {
    imdbLink: imdbLinkOf(row.id as number),
    title: row.title as string,
    originalTitle: row.original_title as string,
    year: (row.year as number | null) ?? undefined,
    runtimeMinutes: (row.runtime as number | null) ?? undefined,
    match,
  }
}
