/**
 * @module movie-log/page on Cloudflare Workers (the `workerd` and `worker` conditions): the same
 * `toPageHandler`, its files built into the bundle, since a Worker has no files to read. Bodies
 * are sent plain: Cloudflare compresses them on the way out.
 */

import builtPage from 'virtual:movie-log-page'
import { type Encoder, servable } from './assets'
import type { PageHandler, PageHandlerOptions } from './handler'
import { createPageServer } from './serve'

export type { PageHandler, PageHandlerOptions } from './handler'

const plain: Encoder = (bytes) => ({ plain: bytes })
const encoder = new TextEncoder()

/**
 * The diary page as a web-standard handler, for the log mounted at `api` on the same host.
 *
 * @example
 * ```ts
 * import { toPageHandler } from 'movie-log/page'
 *
 * const page = toPageHandler({ api: '/movies', basePath: '/diary' })
 * export default { fetch: (request: Request) => page(request) }
 * ```
 */
export function toPageHandler(options: PageHandlerOptions): PageHandler {
  const files = new Map(
    Object.entries(builtPage.assets).map(([name, text]) => [name, encoder.encode(text)]),
  )
  const page = servable(builtPage.html, files, plain)
  const { api, basePath, docs, shares } = options
  const mount = { api, basePath, docs, shares }
  return createPageServer(async () => page, mount, plain)
}
