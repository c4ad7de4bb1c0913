/** @module movie-log/client: the movie log over HTTP, for browsers, Deno, Bun, Workers and Node. */
export {
  IdempotencyError,
  InvalidPageRequestError,
  MovieLogError,
  type MovieLogErrorCode,
  MovieValidationError,
  StoreUnavailableError,
  UnsupportedStoreError,
  type ValidationIssue,
} from '../errors'
export type { Movie, NewMovie } from '../movie'
export type { AddMovieOptions, ListMoviesOptions, MovieLog, MoviePage } from '../movie-log'
export { createMovieLogClient, type MovieLogClientOptions } from './client'
export { MovieLogHttpError } from './errors'
