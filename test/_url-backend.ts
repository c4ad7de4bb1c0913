import { type ClosableMovieLog, createMovieLog, type MovieLogStore } from 'movie-log'
import type { StoreBackend, StoreSuiteOptions } from './_store-suite'

/**
 * A backend reached as a user reaches it, by its store URL alone: `createMovieLog(url)` opens
 * the URL scheme's driver. `open` hands the suite the URL itself, which `connect` opens, and
 * `dropAll` removes what the tests wrote under their namespaces.
 */
export function storeUrlBackend(options: {
  name: string
  url: string
  unreachableUrl: string
  dropAll?: (namespaces: string[]) => Promise<void>
}): { backend: StoreBackend; suite: StoreSuiteOptions } {
  const logs: ClosableMovieLog[] = []
  const namespaces = new Set<string>()
  const urlAsStore = (url: string) => url as unknown as MovieLogStore
  return {
    backend: {
      name: options.name,
      open: async (namespace) => {
        namespaces.add(namespace)
        return urlAsStore(options.url)
      },
      openUnreachable: async () => urlAsStore(options.unreachableUrl),
      closeAll: async () => {
        await Promise.allSettled(logs.splice(0).map((log) => log.close()))
        await options.dropAll?.([...namespaces])
        namespaces.clear()
      },
    },
    suite: {
      name: 'by its URL',
      connect: async (store, logOptions) => {
        const log = createMovieLog(store as unknown as string, {
          ...logOptions,
          connectTimeoutMs: 1000,
        })
        logs.push(log)
        return log
      },
    },
  }
}
