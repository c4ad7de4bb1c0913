/** A screening matched to its IMDb entry through the catalog: exactly one, or none guessed. */
import type { Catalog, CatalogEntry } from '../core/catalog'
import type { Screening } from './history'

/**
 * What matching found: the screening's IMDb link and year (`via` says whether the catalog gave
 * them), or the catalog's candidates when it named none or several.
 *
 * @example
 * ```ts
 * const found: Match = { imdbLink: 'https://www.imdb.com/title/tt0113277/', releaseYear: 1995, via: 'catalog' }
 * ```
 */
export type Match =
  | { imdbLink: string; releaseYear: number | undefined; via: 'source' | 'catalog' }
  | { candidates: CatalogEntry[] }

// Candidates offered in the unmatched file: enough to choose from, few enough to read.
const CANDIDATES = 5

/**
 * Folds a title for comparison: case, accents and punctuation left out.
 *
 * @example
 * ```ts
 * foldTitle('Amélie!') // 'amelie'
 * ```
 */
export const foldTitle = (title: string): string =>
  title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

/**
 * The screening's IMDb entry: its own link when the service gave one; else the one catalog
 * entry with its title (or original title, folded) and, when the service gave a year, that year.
 * None or several: the candidates, for the person to choose; never a guess. No catalog: no
 * candidates.
 *
 * @example
 * ```ts
 * const found = await matchScreening(screening, catalog)
 * if ('candidates' in found) console.log('choose one of', found.candidates)
 * ```
 */
export async function matchScreening(
  screening: Screening,
  catalog: Catalog | undefined,
): Promise<Match> {
  if (screening.imdbLink) {
    return { imdbLink: screening.imdbLink, releaseYear: screening.releaseYear, via: 'source' }
  }
  if (!catalog) return { candidates: [] }
  const { title, releaseYear: year } = screening
  const candidates = await catalog.find(year === undefined ? { title } : { title, year })
  const folded = foldTitle(title)
  const same = candidates.filter(
    (entry) =>
      (year === undefined || entry.year === year) &&
      (foldTitle(entry.title) === folded || foldTitle(entry.originalTitle) === folded),
  )
  const [only] = same
  if (same.length === 1 && only) {
    return { imdbLink: only.imdbLink, releaseYear: year ?? only.year, via: 'catalog' }
  }
  return { candidates: candidates.slice(0, CANDIDATES) }
}
