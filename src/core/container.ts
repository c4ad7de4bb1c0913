// tsyringe throws at load time unless a Reflect metadata polyfill is loaded first.
import 'reflect-metadata'

export { container, type DependencyContainer } from 'tsyringe'

/** Injection tokens. */
export const TOKENS = {
  /** Openers of store URLs, one registration per driver: how another store plugs in. */
  storeOpeners: Symbol('movie-log.store-openers'),
} as const
