/** The IMDb catalog `movie-log import` matches titles with, when one is loaded. */
import type { Catalog } from '../core/catalog'

/**
 * The catalog beside the log at `storeUrl` (or in `MOVIE_LOG_CATALOG`). `movie-log catalog
 * load` (issue 58, the catalog's half) is what loads one; until it is merged there is none, and
 * every title without an IMDb id goes to the unmatched file.
 *
 * @example
 * ```ts
 * const catalog = await findCatalog('sqlite://./data/movies.sqlite')
 * ```
 */
export async function findCatalog(_storeUrl: string): Promise<Catalog | undefined> {
  return undefined
}
