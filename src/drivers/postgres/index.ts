/** @module movie-log/postgres: a PostgreSQL database, over the `pg` package. */
export type { StoreAdapter } from '../../core/store-adapter'
export { postgres } from './driver'
