/** @module movie-log: the framework-agnostic core, a movie log over a store URL or a keyv store. */

export type { Catalog, CatalogEntry, CatalogQuery } from './core/catalog'
export { CatalogNotLoadedError } from './core/catalog-rows'
export type { MovieChanges } from './core/changes'
export type { ChangeOptions } from './core/corrections'
export type {
  ChangeRead,
  DateQuery,
  LogDriver,
  StoreDriver,
  StoredChange,
} from './core/driver'
export {
  FeedUnavailableError,
  IdempotencyError,
  InvalidOwnerError,
  InvalidPageRequestError,
  LogClosedError,
  MovieLogError,
  type MovieLogErrorCode,
  MovieNotFoundError,
  MovieValidationError,
  NamespaceConflictError,
  PreconditionFailedError,
  type StoreFailure,
  type StoreFailureReason,
  StoreUnavailableError,
  UnsupportedStoreError,
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
export type {
  AddMovieOptions,
  MovieLog,
  MovieLogOptions,
  MovieLogs,
  ShareableMovieLog,
} from './core/movie-log'
export type { MovieSort } from './core/range'
export type { ShareLink, ShareOptions } from './core/share'
export type { MovieStats, Rewatch, StatsOptions, TagCount } from './core/stats'
export { versionOf } from './core/version'
export type { LogChange, WatchOptions } from './core/watch'
export {
  type ClosableMovieLog,
  createMovieLog,
  createMovieLogs,
  type MovieLogStoreInput,
  registerStoreOpener,
  type StoreAdapter,
  type StoreOpener,
  type StoreOpenOptions,
} from './create'
export type { MovieLogStore } from './drivers/shared/keyv'
export {
  definePlugin,
  type ImportFormat,
  MOVIE_LOG_PLUGIN,
  type MovieLogPlugin,
  type PluginContainer,
  registerPlugin,
  registerPluginsFrom,
  type Scrobble,
  type ScrobbleSource,
  type Watched,
  type WatchTime,
} from './plugins'
export type { HostLookup } from './webhooks/addresses'
export {
  DEFAULT_RETRY_DELAYS_MS,
  startWebhookDelivery,
  type WebhookDelivery,
  type WebhookDeliveryOptions,
} from './webhooks/delivery'
export {
  type NewWebhookEndpoint,
  WEBHOOK_EVENTS,
  type WebhookEvent,
  WebhookValidationError,
} from './webhooks/endpoint'
export type { WebhookStatus } from './webhooks/state'
export {
  type CreatedWebhookEndpoint,
  type WebhookEndpoint,
  type Webhooks,
  type WebhooksOptions,
  webhooksOf,
} from './webhooks/webhooks'
