/**
 * Store URLs: which driver opens a scheme. The drivers movie-log ships are subpaths of the
 * package, loaded by the first URL that names one. Openers live in a tsyringe container, where
 * `registerStoreOpener` plugs another store in; it is loaded with the first URL, so an app that
 * gives its store (or a Worker) never loads tsyringe.
 */
import type { DependencyContainer } from './core/container'
import type { StoreDriver } from './core/driver'
import { UnsupportedStoreError } from './core/errors'
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

// Openers registered since the container last took them in; and every scheme known, with
// whether its calls can hang, for what must be said before an opener is loaded.
const registered: StoreOpener[] = []
const remoteBySchemes = new Map<string, boolean>()
let registry: Promise<{ scope: DependencyContainer; token: symbol }> | undefined

function know(opener: StoreOpener): void {
  for (const scheme of opener.schemes) remoteBySchemes.set(scheme.toLowerCase(), opener.remote)
}
for (const opener of SHIPPED) know(opener)

/**
 * Registers a driver for store URLs of its schemes, for every log made after.
 *
 * @example
 * ```ts
 * registerStoreOpener({ schemes: ['mystore'], remote: true, open: openMyStore })
 * createMovieLog('mystore://host/db')
 * ```
 */
export function registerStoreOpener(opener: StoreOpener): void {
  know(opener)
  registered.push(opener)
}

async function openerFor(scheme: string): Promise<StoreOpener> {
  registry ??= import('./core/container').then(({ container, TOKENS }) => {
    const scope = container.createChildContainer()
    for (const opener of SHIPPED) scope.register(TOKENS.storeOpeners, { useValue: opener })
    return { scope, token: TOKENS.storeOpeners }
  })
  const { scope, token } = await registry
  // Registered since the last open: into the container, in the order they came.
  for (const opener of registered.splice(0)) scope.register(token, { useValue: opener })
  return scope
    .resolveAll<StoreOpener>(token)
    .findLast((each) => each.schemes.some((named) => named.toLowerCase() === scheme)) as StoreOpener
}

/**
 * The store a URL names, opened by its scheme's driver on the log's first call. An unknown
 * scheme is refused at once.
 */
export function storeOfUrl(url: string): StoreAdapter {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase()
  const remote = scheme === undefined ? undefined : remoteBySchemes.get(scheme)
  if (scheme === undefined || remote === undefined) {
    throw new UnsupportedStoreError(
      `unknown store URL '${redact(url)}': use memory://, sqlite://PATH, redis://HOST:PORT, rediss://…, redis+cluster://HOST:PORT,HOST:PORT, or postgres://USER@HOST/DB`,
    )
  }
  let opener: StoreOpener | undefined
  return {
    kind: scheme,
    remote,
    open: async (options) => {
      opener = await openerFor(scheme)
      return opener.open(url, options)
    },
    classifyFailure: (error) => (opener?.classifyFailure ?? classifyNodeFailure)(error),
  }
}
