/** @module movie-log/client: the movie log over HTTP, for browsers, Deno, Bun, Workers and Node. */

export type { Catalog, CatalogEntry, CatalogQuery } from '../core/catalog'
export { CatalogNotLoadedError } from '../core/catalog-rows'
export type { MovieChanges } from '../core/changes'
export type { ChangeOptions } from '../core/corrections'
export {
  FeedUnavailableError,
  IdempotencyError,
  InvalidPageRequestError,
  LogClosedError,
  MovieLogError,
  type MovieLogErrorCode,
  MovieNotFoundError,
  MovieValidationError,
  NamespaceConflictError,
  PreconditionFailedError,
  type StoreFailureReason,
  StoreUnavailableError,
  UnsupportedStoreError,
  type ValidationIssue,
} from '../core/errors'
export type { ListMoviesOptions, MoviePage } from '../core/listing'
export type { Movie, NewMovie } from '../core/movie'
export type { AddMovieOptions, MovieLog } from '../core/movie-log'
export type { MovieSort } from '../core/range'
export { versionOf } from '../core/version'
export type { LogChange, WatchOptions } from '../core/watch'
export { createCatalogClient } from './catalog'
export { createMovieLogClient, type MovieLogClientOptions } from './client'
export { MovieLogHttpError } from './errors'
export { type FileImportReport, type ImportFileOptions, importFile } from './import'
