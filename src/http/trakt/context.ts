/** What every Trakt route is given: the caller's diary, its records and the store's, the time. */
import type { Catalog } from '../../core/catalog'
import { matchInCatalog } from '../../core/catalog-match'
import { CatalogNotLoadedError } from '../../core/catalog-rows'
import type { MovieLog } from '../../core/movie-log'
import type { LogRecords } from '../../core/records'
import type { NamedMovie } from './movies'

const TT = /\/title\/(tt\d+)\/$/

export interface TraktContext {
  /** The diary the request's token acts for. */
  log: MovieLog
  /** That diary's records (scrobble windows). */
  records: LogRecords
  /** The handler's `timeZone`: local times of scrobbles, `watched_at` of history. */
  timeZone: string | undefined
  now: number
  /**
   * The IMDb id of a movie a client named without one (a TMDB id, a title and year): the seam
   * where a loaded catalog answers. Without one, such a movie is Trakt's unknown item (404).
   */
  match?: (movie: NamedMovie) => Promise<string | undefined>
}

/** The IMDb id of a movie a client named: its own, else the catalog's match. */
export async function imdbIdFor(
  context: TraktContext,
  movie: NamedMovie,
): Promise<string | undefined> {
  return movie.imdbId ?? (await context.match?.(movie))
}

/**
 * `TraktContext.match` over a catalog: the IMDb id of the one entry with the title and year a
 * client sent (src/core/catalog-match.ts's rule), else none. The catalog has no TMDB ids: a movie
 * known by its TMDB id alone stays unknown. No catalog loaded yet is no match.
 *
 * @example
 * ```ts
 * const match = catalogMatcher(openCatalog('catalog.sqlite'))
 * await match({ imdbId: undefined, title: 'Amélie', year: 2001, sent: {} }) // 'tt0211915'
 * ```
 */
export function catalogMatcher(catalog: Catalog): NonNullable<TraktContext['match']> {
  return async ({ title, year }) => {
    if (typeof title !== 'string' || title.trim() === '' || !Number.isSafeInteger(year)) {
      return undefined
    }
    try {
      const found = await matchInCatalog(catalog, { title, year: year as number })
      return found.entry && TT.exec(found.entry.imdbLink)?.[1]
    } catch (error) {
      if (CatalogNotLoadedError.is(error)) return undefined
      throw error
    }
  }
}
