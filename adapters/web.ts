/** @module movie-log/web: serve a movie log from any web-standard `fetch` host. */

import { createMovieLogFetch, type MovieLogHttpOptions } from '../src/http'
import type { MovieLog } from '../src/movie-log'

export type { CorsOrigins } from '../src/cors'
export type { AuthorizeResult, MovieLogAction, MovieLogHttpOptions } from '../src/http'
export type { Problem, ProblemFieldError } from '../src/problem'

/**
 * Turns a movie log into a web-standard handler, `(request: Request) => Promise<Response>`, for
 * Hono, Next.js route handlers, Bun, Deno, Cloudflare Workers, srvx or Node (through srvx).
 * Mount it at `options.basePath` (default `/movies`); hosts that strip the prefix work too.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono'
 * import { createMovieLog } from 'movie-log'
 * import { toWebHandler } from 'movie-log/web'
 *
 * const handler = toWebHandler(createMovieLog())
 * const app = new Hono()
 * app.all('/movies', (c) => handler(c.req.raw))
 * app.all('/movies/*', (c) => handler(c.req.raw))
 * ```
 */
export function toWebHandler(
  log: MovieLog,
  options?: MovieLogHttpOptions,
): (request: Request) => Promise<Response> {
  return createMovieLogFetch(log, options)
}
