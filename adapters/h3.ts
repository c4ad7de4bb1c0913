/** @module movie-log/h3: mount a movie log in an h3 v2 app. */
import { defineHandler, type EventHandlerWithFetch } from 'h3'
import { createMovieLogFetch, type MovieLogHttpOptions } from '../src/http'
import type { MovieLog } from '../src/movie-log'

export type { CorsOrigins } from '../src/cors'
export type { AuthorizeResult, MovieLogAction, MovieLogHttpOptions } from '../src/http'

/**
 * Turns a movie log into an h3 v2 event handler. Mount it with `app.mount('/movies', handler)`,
 * or route it yourself with `app.all('/movies/**', handler)`; it answers exactly as the web
 * handler does.
 *
 * @example
 * ```ts
 * import { H3 } from 'h3'
 * import { createMovieLog } from 'movie-log'
 * import { toH3Handler } from 'movie-log/h3'
 *
 * const app = new H3().mount('/movies', toH3Handler(createMovieLog()))
 * ```
 */
export function toH3Handler(log: MovieLog, options?: MovieLogHttpOptions): EventHandlerWithFetch {
  const handle = createMovieLogFetch(log, options)
  return defineHandler((event) => handle(event.req))
}
