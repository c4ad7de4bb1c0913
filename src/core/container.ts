// tsyringe throws at import time unless a Reflect metadata polyfill is loaded first:
// every module that needs DI imports it from here, so the order holds in every bundle.
import 'reflect-metadata'

export { container, type DependencyContainer, inject, injectable, Lifecycle } from 'tsyringe'

/** Injection tokens. tsup emits no decorator metadata, so every dependency is named. */
export const TOKENS = {
  driver: Symbol('movie-log.driver'),
  generateId: Symbol('movie-log.generate-id'),
  clock: Symbol('movie-log.clock'),
} as const
