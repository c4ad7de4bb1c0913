/** @module movie-log/sqlite: a SQLite file, shared by every process that opens it. */
export type { StoreAdapter } from '../../core/store-adapter'
export { sqlite } from '../sqlite'
export type { ClosableCatalog } from '../sqlite-catalog'
export { openCatalog } from '../sqlite-catalog'
