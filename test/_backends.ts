import type { MovieLogStore } from 'movie-log'
import { SOLE_OWNER, type StoreDriver } from '../src/core/driver'
import type { StoreAdapter, StoreOpenOptions } from '../src/create'
import type { StoreBackend } from './_store-suite'

/** The driver a store URL opens, for a test to clean up with. */
export async function openUrlDriver(url: string, options: StoreOpenOptions): Promise<StoreDriver> {
  if (url.startsWith('sqlite:'))
    return (await import('../src/drivers/sqlite/driver')).openSqliteDriver(url, options)
  if (url.startsWith('postgres'))
    return (await import('../src/drivers/postgres/driver')).openPostgresDriver(url, options)
  return (await import('../src/drivers/redis/driver')).openRedisDriver(url, options)
}

/** A driver as `createMovieLog` gets it: a store to open (Redis under a Keyv) is opened. */
export async function openedStore(
  store: StoreDriver | StoreAdapter,
  namespace: string,
): Promise<StoreDriver> {
  return 'open' in store ? store.open({ namespace, connectTimeoutMs: 1000 }) : store
}

/**
 * A backend reached by its store URL alone, as a user reaches it: the suite's
 * `createMovieLog(store, { namespace })` gets the URL. Each test writes under a namespace of
 * its own, dropped after: the shared Redis and PostgreSQL stay clean.
 */
export function urlBackend(
  name: string,
  url: string,
  unreachable: string | (() => MovieLogStore),
): StoreBackend {
  const namespaces = new Set<string>()
  const asStore = (storeUrl: string) => storeUrl as unknown as MovieLogStore
  return {
    name,
    open: async (namespace) => {
      namespaces.add(namespace)
      return asStore(url)
    },
    openUnreachable: async () =>
      typeof unreachable === 'string' ? asStore(unreachable) : unreachable(),
    closeAll: async () => {
      if (url.startsWith('memory:')) return
      for (const namespace of namespaces) {
        const driver = await openUrlDriver(url, { namespace, connectTimeoutMs: 1000 })
        await driver.drop(SOLE_OWNER).finally(() => driver.close())
      }
      namespaces.clear()
    },
  }
}

/**
 * A backend reached through keyv adapters the caller made (`make(namespace)`), each a
 * connection of its own; `shared`, one adapter per namespace for every log, as one process
 * would share it (the scan driver's create-if-absent holds within one process only).
 */
export function keyvBackend(
  name: string,
  make: () => MovieLogStore & { disconnect?(): Promise<void> },
  unreachable: () => MovieLogStore,
  options: { shared?: boolean; drop?: (namespace: string) => Promise<void> } = {},
): StoreBackend {
  const made = new Map<string, ReturnType<typeof make>>()
  const all: ReturnType<typeof make>[] = []
  return {
    name,
    scans: options.shared,
    open: async (namespace) => {
      const kept = options.shared ? made.get(namespace) : undefined
      if (kept) return kept
      const store = make()
      made.set(namespace, store)
      all.push(store)
      return store
    },
    openUnreachable: async () => unreachable(),
    closeAll: async () => {
      for (const namespace of made.keys()) await options.drop?.(namespace)
      made.clear()
      await Promise.allSettled(all.splice(0).map((store) => store.disconnect?.()))
    },
  }
}
