/** @module movie-log/sqlite: a SQLite file, shared by every process that opens it. */
export type { StoreAdapter } from '../../core/store-adapter'
export { sqlite } from './driver'
