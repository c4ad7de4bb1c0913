/** @module movie-log/page: the diary page for your own app, beside the log it shows. */

import type { MovieLog, MovieLogs } from '../../core/movie-log'
import { diaryPage, encode } from './files'
import { createPageServer, type PageMount } from './serve'

/** Where the page is mounted, and where its log is. */
export interface PageHandlerOptions {
  /** The log's path on the page's host, as the browser sees it, e.g. `/movies`. */
  api: string
  /** Where the page is mounted, e.g. `/diary`; the root when unset. The worker's scope. */
  basePath?: string
  /** A link to an API reference for the page's header; none when unset. */
  docs?: string
  /**
   * The log or logs (`createMovieLog(s)`) whose share links the page serves, read-only, at
   * `{basePath}/s/<token>`, their data from `{api}/s/<token>/…`; none when unset.
   */
  shares?: MovieLog | MovieLogs
}

/** Serves the page: `GET {basePath}/` and its assets; 404 for anything else under it. */
export type PageHandler = (request: Request) => Promise<Response>

/**
 * The diary page as a web-standard handler, for the log mounted at `api` on the same host.
 * HTML is revalidated on every visit, hashed assets are cached for a year, text is sent with
 * brotli or gzip when the browser takes it, and the Content-Security-Policy allows nothing from
 * another host. A service worker (scope `basePath`) keeps the page for offline use.
 *
 * @example
 * ```ts
 * import { H3 } from 'h3'
 * import { toH3Handler } from 'movie-log/h3'
 * import { toPageHandler } from 'movie-log/page'
 *
 * const app = new H3()
 *   .mount('/movies', toH3Handler(log))
 *   .mount('/diary', toPageHandler({ api: '/movies', basePath: '/diary' }))
 * ```
 */
export function toPageHandler(options: PageHandlerOptions): PageHandler {
  const { api, basePath, docs, shares } = options
  const mount: PageMount = { api, basePath, docs, shares }
  return createPageServer(() => diaryPage(), mount, encode)
}
