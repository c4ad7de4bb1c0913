/** @module movie-log/d1: Cloudflare D1, a Worker's SQLite database (`env.DB`). */
export type { StoreAdapter } from '../../core/store-adapter'
export { type D1DatabaseLike, type D1PreparedStatementLike, d1 } from './driver'
