/** The IMDb catalog `movie-log import` matches titles with, when one is loaded. */
import { existsSync } from 'node:fs'
import { catalogFileOf, openCatalogOf } from '../store-files'

/**
 * The catalog beside the log at `storeUrl` (or in `MOVIE_LOG_CATALOG`), loaded by `movie-log
 * catalog load`; `undefined` when there is none, and every title without an IMDb id then goes
 * to the unmatched file. Close it when the import is done.
 *
 * @example
 * ```ts
 * const catalog = await findCatalog('sqlite://./data/movies.sqlite')
 * ```
 */
export async function findCatalog(storeUrl: string) {
  const path = await catalogFileOf(storeUrl, process.env)
  // Not loaded yet: the import says so and leaves every title it cannot match unmatched.
  if (path === undefined || !existsSync(path)) return undefined
  return openCatalogOf(storeUrl)
}
