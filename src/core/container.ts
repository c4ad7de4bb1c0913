import { createRequire } from 'node:module'
import type * as Tsyringe from 'tsyringe'

// Both are CommonJS packages, installed beside movie-log (runtime dependencies). Loaded with
// require(), not import: an ES module importing them runs each of their files through Node's
// ESM loader and CommonJS export lexer (tsyringe is 34 files), which made most of what movie-log
// added to a process start (bench/NOTES.md). tsyringe throws at load time unless a Reflect
// metadata polyfill is loaded first: every module that needs DI gets it from here.
const require = createRequire(import.meta.url)
require('reflect-metadata')
const tsyringe: typeof Tsyringe = require('tsyringe')

export const { container, inject, injectable } = tsyringe
export type { DependencyContainer } from 'tsyringe'

/** Injection tokens. tsup emits no decorator metadata, so every dependency is named. */
export const TOKENS = {
  /** The store's driver: one per store, shared by every log on it. */
  store: Symbol('movie-log.store'),
  generateId: Symbol('movie-log.generate-id'),
  clock: Symbol('movie-log.clock'),
  settings: Symbol('movie-log.settings'),
  /** Openers of store URLs, one registration per driver: how another store plugs in. */
  storeOpeners: Symbol('movie-log.store-openers'),
} as const
