/** @module movie-log/sqlite: a SQLite file, shared by every process that opens it. */
export type { StoreAdapter } from '../../core/store-adapter'
export type { ClosableCatalog } from './catalog'
export { openCatalog } from './catalog'
export { sqlite } from './driver'
