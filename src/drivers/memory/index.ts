/** @module movie-log/memory: a store in this process's memory. */
export type { StoreAdapter } from '../../core/store-adapter'
export { memory } from './driver'
