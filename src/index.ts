/** @module movie-log: the framework-agnostic core, a movie log over any keyv store. */
export {
  IdempotencyError,
  InvalidPageRequestError,
  MovieLogError,
  type MovieLogErrorCode,
  MovieValidationError,
  type ValidationIssue,
} from './core/errors'
export type { Clock, IdGenerator } from './core/id'
export type { Movie, NewMovie } from './core/movie'
export {
  type AddMovieOptions,
  createMovieLog,
  type ListMoviesOptions,
  type MovieLog,
  type MovieLogOptions,
  type MoviePage,
} from './core/movie-log'
export { StoreUnavailableError, UnsupportedStoreError } from './core/store-errors'
export type { StoreFailureReason } from './core/store-failure'
export type { MovieLogStore } from './drivers/keyv'
