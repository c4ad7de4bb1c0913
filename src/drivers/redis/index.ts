/** @module movie-log/redis: one Redis or a Redis Cluster, over node-redis (`@keyv/redis`). */
export type { StoreAdapter } from '../../core/store-adapter'
export { redis } from './driver'
