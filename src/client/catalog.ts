/** The IMDb catalog of a movie-log server, over HTTP (`GET {base}/catalog?q=&year=`). */
import type { Catalog, CatalogEntry } from '../core/catalog'
import { type MovieLogClientOptions, sendOptionsOf } from './client'
import { errorFrom } from './errors'
import { send } from './send'

/**
 * The catalog of the log mounted at `url`, as the server's `catalog` option gives it: `find`
 * answers what `GET {base}/catalog` does, best first (at most 10). A server without a catalog
 * throws `CatalogNotLoadedError`. Browser-safe; the options are the log client's.
 *
 * @example
 * ```ts
 * import { createCatalogClient } from 'movie-log/client'
 *
 * const catalog = createCatalogClient('http://127.0.0.1:3000/movies')
 * const [best] = await catalog.find({ title: 'amelie', year: 2001 })
 * ```
 */
export function createCatalogClient(
  url: string | URL,
  options: MovieLogClientOptions = {},
): Catalog {
  const base = String(url).replace(/\/+$/, '')
  const sendOptions = sendOptionsOf(options)
  return {
    async find({ title, year }, limit = 10): Promise<CatalogEntry[]> {
      const query = new URLSearchParams({ q: title })
      if (year !== undefined) query.set('year', String(year))
      const headers = new Headers(options.headers)
      headers.set('accept', 'application/json')
      const response = await send(`${base}/catalog?${query}`, { headers }, 'find', sendOptions)
      if (response.status !== 200) throw await errorFrom(response, 'find')
      return ((await response.json()) as CatalogEntry[]).slice(0, limit)
    },
  }
}
