/** @module movie-log/client: the movie log over HTTP, for browsers, Deno, Bun, Workers and Node. */
export {
  IdempotencyError,
  InvalidPageRequestError,
  MovieLogError,
  type MovieLogErrorCode,
  MovieValidationError,
  type ValidationIssue,
} from '../core/errors'
export type { Movie, NewMovie } from '../core/movie'
export type { AddMovieOptions, ListMoviesOptions, MovieLog, MoviePage } from '../core/movie-log'
export { StoreUnavailableError, UnsupportedStoreError } from '../core/store-errors'
export { createMovieLogClient, type MovieLogClientOptions } from './client'
export { MovieLogHttpError } from './errors'
