import type { LogDriver } from './driver'
import type { IdGenerator } from './id'

/** What an import needs of its log, and nothing the log shows to its callers. */
export interface ImportTarget {
  driver: LogDriver
  generateId: IdGenerator
  /** Whether the log makes ids with a caller's generator (any printable id is then accepted). */
  customIds: boolean
}

// Keyed by the log object: `importMovies(log, ...)` reaches its store without a public handle.
const targets = new WeakMap<object, ImportTarget>()

/** Called by `createMovieLog` for each log it makes. */
export function registerImportTarget(log: object, target: ImportTarget): void {
  targets.set(log, target)
}

/** The store behind a log made by `createMovieLog`, or `undefined` for any other object. */
export function importTargetOf(log: object): ImportTarget | undefined {
  return targets.get(log)
}
