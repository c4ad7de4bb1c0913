// tsyringe throws at import time unless a Reflect metadata polyfill is loaded first:
// every module that needs DI imports it from here, so the order holds in every bundle.
import 'reflect-metadata'

export { container, type DependencyContainer, inject, injectable, Lifecycle } from 'tsyringe'

/** Injection tokens. tsup emits no decorator metadata, so every dependency is named. */
export const TOKENS = {
  keyv: Symbol('movie-log.keyv'),
  movieStore: Symbol('movie-log.movie-store'),
  generateId: Symbol('movie-log.generate-id'),
  storeTimeoutMs: Symbol('movie-log.store-timeout-ms'),
  clock: Symbol('movie-log.clock'),
} as const
