/** @module movie-log: the framework-agnostic core, a movie log over any keyv store. */
export {
  IdempotencyError,
  InvalidPageRequestError,
  MovieLogError,
  type MovieLogErrorCode,
  MovieValidationError,
  StoreUnavailableError,
  UnsupportedStoreError,
  type ValidationIssue,
} from './errors'
export type { Clock, IdGenerator } from './id'
export type { Movie, NewMovie } from './movie'
export {
  type AddMovieOptions,
  createMovieLog,
  type ListMoviesOptions,
  type MovieLog,
  type MovieLogOptions,
  type MoviePage,
} from './movie-log'
export type { MovieLogStore } from './store'
export type { StoreFailureReason } from './store-failure'
