/**
 * Store URLs: which driver opens a scheme. The drivers movie-log ships are subpaths of the
 * package, loaded by the first URL that names one; `registerStoreOpener` plugs another store in
 * (a plug-in point of `src/plugins.ts`).
 */
import type { StoreDriver } from './core/driver'
import { UnsupportedStoreError } from './core/errors'
import { PluginPoint } from './core/plugin-point'
import type { StoreAdapter, StoreOpenOptions } from './core/store-adapter'
import { redact } from './core/store-url'
import { memory } from './drivers/memory/driver'
import { classifyNodeFailure } from './drivers/shared/failures'
import { type DriverName, loadDriver } from './drivers/shared/load'

/**
 * Opens the driver for a store URL's scheme. Register one with `registerStoreOpener` to plug in
 * a store movie-log does not ship a driver for.
 *
 * @example
 * ```ts
 * registerStoreOpener({ schemes: ['mystore'], remote: true, open: (url, o) => openMyDriver(url, o) })
 * ```
 */
export interface StoreOpener {
  /** URL schemes it opens, without `://`: `['redis', 'rediss']`. */
  schemes: readonly string[]
  /** Whether its calls can hang (a store across a network): they get the store timeout. */
  remote: boolean
  open(url: string, options: StoreOpenOptions): Promise<StoreDriver>
  /**
   * Which errors of `open` are the store failing (503, retried), and why: the driver's own
   * classifier. Without it, Node's socket and file errors (`ECONNREFUSED`, `ENOSPC`, ...) are;
   * any other error is a bug (500, logged).
   */
  classifyFailure?: StoreDriver['classifyFailure']
}

/** A driver movie-log ships, opening its schemes through its subpath's factory. */
function shipped(name: DriverName, schemes: readonly string[]): StoreOpener {
  let adapter: StoreAdapter | undefined
  return {
    schemes,
    remote: true,
    open: async (url, options) => {
      adapter = (await loadDriver(name))(url)
      return adapter.open(options)
    },
    classifyFailure: (error) => (adapter?.classifyFailure ?? classifyNodeFailure)(error),
  }
}

const SHIPPED: readonly StoreOpener[] = [
  {
    schemes: ['memory'],
    remote: false,
    open: (_url, options) => memory().open(options),
  },
  shipped('sqlite', ['sqlite']),
  shipped('postgres', ['postgres', 'postgresql']),
  shipped('redis', ['redis', 'rediss', 'redis+cluster', 'rediss+cluster']),
]

/** Every store opener, the shipped ones first in line after any an app registers. */
export const storeOpeners = new PluginPoint<StoreOpener>(
  'store opener',
  // Schemes are told apart without regard to case (RFC 3986).
  (opener) =>
    Array.isArray(opener.schemes)
      ? opener.schemes.map((scheme) => String(scheme).toLowerCase())
      : [],
  ['open'],
  SHIPPED,
)

/**
 * Registers a driver for store URLs of its schemes, for every log made after; one registered
 * for a scheme movie-log ships replaces its driver. The same as `registerPlugin({ storeOpeners })`.
 *
 * @example
 * ```ts
 * registerStoreOpener({ schemes: ['mystore'], remote: true, open: openMyStore })
 * createMovieLog('mystore://host/db')
 * ```
 */
export function registerStoreOpener(opener: StoreOpener): void {
  storeOpeners.register(opener)
}

/**
 * The store a URL names, opened by its scheme's driver on the log's first call. An unknown
 * scheme is refused at once.
 */
export function storeOfUrl(url: string): StoreAdapter {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase()
  const opener = scheme === undefined ? undefined : storeOpeners.find(scheme)
  if (scheme === undefined || opener === undefined) {
    throw new UnsupportedStoreError(
      `unknown store URL '${redact(url)}': use memory://, sqlite://PATH, redis://HOST:PORT, rediss://…, redis+cluster://HOST:PORT,HOST:PORT, or postgres://USER@HOST/DB`,
    )
  }
  return {
    kind: scheme,
    remote: opener.remote,
    open: (options) => opener.open(url, options),
    classifyFailure: (error) => (opener.classifyFailure ?? classifyNodeFailure)(error),
  }
}
