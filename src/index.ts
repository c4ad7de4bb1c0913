/** @module movie-log: the framework-agnostic core, a movie log over any keyv store. */

export { MovieNotFoundError, PreconditionFailedError } from './core/change-errors'
export type { MovieChanges } from './core/changes'
export type { ChangeOptions } from './core/corrections'
export {
  IdempotencyError,
  InvalidPageRequestError,
  MovieLogError,
  type MovieLogErrorCode,
  MovieValidationError,
  type ValidationIssue,
} from './core/errors'
export type { Clock, IdGenerator } from './core/id'
export {
  type ImportMoviesOptions,
  type ImportReport,
  type ImportRow,
  type ImportRowResult,
  importMovies,
} from './core/import'
export type { ListMoviesOptions, MoviePage } from './core/listing'
export type { Movie, NewMovie } from './core/movie'
export {
  type AddMovieOptions,
  createMovieLog,
  type MovieLog,
  type MovieLogOptions,
} from './core/movie-log'
export type { MovieSort } from './core/range'
export { StoreUnavailableError, UnsupportedStoreError } from './core/store-errors'
export type { StoreFailureReason } from './core/store-failure'
export { versionOf } from './core/version'
export type { MovieLogStore } from './drivers/keyv'
