/** @module movie-log/h3: mount a movie log in an h3 v2 app. */
export type { CorsOrigins } from '../src/http/cors'
export { toH3Handler } from '../src/http/h3'
export type { AuthorizeResult, MovieLogAction, MovieLogHttpOptions } from '../src/http/options'
