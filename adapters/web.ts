/** @module movie-log/web: serve a movie log from any web-standard `fetch` host. */

import type { MovieLog, MovieLogs } from '../src/core/movie-log'
import type { MovieLogHttpOptions } from '../src/http/options'
import { createMovieLogFetch } from '../src/http/replier'

export type { CorsOrigins } from '../src/http/cors'
export type { AuthorizeResult, MovieLogAction, MovieLogHttpOptions } from '../src/http/options'
export type { Problem, ProblemFieldError } from '../src/http/problem'

/**
 * Turns a movie log into a web-standard handler, `(request: Request) => Promise<Response>`, for
 * Hono, Next.js route handlers, srvx or Node (through srvx), `Bun.serve`, `Deno.serve` and a
 * Cloudflare Worker's `fetch`: each tested in CI (the manual's Runtimes page).
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
  log: MovieLog | MovieLogs,
  options?: MovieLogHttpOptions,
): (request: Request) => Promise<Response> {
  return createMovieLogFetch(log, options)
}
