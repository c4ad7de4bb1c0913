/**
 * One IMDb entry for a title and year, or why there is none: what a scrobble without an IMDb id
 * (and an import row) is matched with. Never a guess: exactly one entry of the same title and
 * year, or no match.
 */
import type { Catalog, CatalogEntry } from './catalog'
import { catalogKey } from './catalog-key'

/**
 * How a candidate's title met the one asked: its own title, its original title, another of its
 * titles (another language's), or a title that starts with the words. A catalog may add it to
 * each `CatalogEntry` it answers (the SQLite catalog does); `GET {base}/catalog` sends it.
 */
export type CatalogMatchKind = 'title' | 'original' | 'aka' | 'start'

/** A `CatalogEntry` that says how it matched. */
export interface MatchedCatalogEntry extends CatalogEntry {
  match: CatalogMatchKind
}

/** The entry matched, or the reason there is none and the candidates seen. */
export type CatalogMatch =
  | { entry: CatalogEntry }
  | { entry?: undefined; reason: string; candidates: CatalogEntry[] }

/**
 * The one entry of `catalog` with this title (its own, original or another) and this year.
 *
 * @example
 * ```ts
 * const matched = await matchInCatalog(catalog, { title: 'Amélie', year: 2001 })
 * if (matched.entry) console.log(matched.entry.imdbLink)
 * else console.log(matched.reason)
 * ```
 */
export async function matchInCatalog(
  catalog: Catalog,
  query: { title: string; year: number },
): Promise<CatalogMatch> {
  const candidates = await catalog.find(query, 10)
  const key = catalogKey(query.title)
  const same = candidates.filter((entry) => entry.year === query.year && sameTitle(entry, key))
  if (same.length === 1) return { entry: same[0] as CatalogEntry }
  const named = `'${query.title}' (${query.year})`
  const reason =
    same.length === 0
      ? `no IMDb entry of the catalog is ${named}`
      : `${same.length} IMDb entries of the catalog are ${named}: ${same.map((entry) => entry.imdbLink).join(', ')}`
  return { reason, candidates }
}

// A catalog that says how each entry matched is believed; one that does not is checked by key.
function sameTitle(entry: CatalogEntry, key: string): boolean {
  const match = (entry as Partial<MatchedCatalogEntry>).match
  if (match !== undefined) return match !== 'start'
  return catalogKey(entry.title) === key || catalogKey(entry.originalTitle) === key
}
