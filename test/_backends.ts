import type Keyv from 'keyv'
import type { MovieLogStore } from 'movie-log'
import { openStore } from '../examples/store'
import type { StoreBackend } from './_store-suite'

/** A backend reached through a store URL, wired as the example server wires it. */
export function urlBackend(
  name: string,
  url: string,
  unreachable: string | (() => MovieLogStore),
): StoreBackend {
  const opened: Keyv[] = []
  const open = async (storeUrl: string, namespace?: string): Promise<MovieLogStore> => {
    const keyv = await openStore(storeUrl, { namespace, connectTimeout: 1000 })
    opened.push(keyv)
    return keyv
  }
  return {
    name,
    open: (namespace) => open(url, namespace),
    openUnreachable: async () =>
      typeof unreachable === 'string' ? open(unreachable) : unreachable(),
    closeAll: async () => {
      const closing = opened.splice(0)
      // Each test wrote under its own namespace: leave the shared Redis and Postgres clean.
      await Promise.allSettled(closing.map((keyv) => keyv.clear()))
      // @keyv/postgres shares one pool per URL, so a second disconnect of it throws.
      await Promise.allSettled(closing.map((keyv) => keyv.disconnect()))
    },
  }
}
