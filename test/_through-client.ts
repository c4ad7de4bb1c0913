import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeHandler } from 'h3/node'
import { createMovieLog, type MovieLogOptions, type MovieLogStore } from 'movie-log'
import { createMovieLogClient, type MovieLogClientOptions } from 'movie-log/client'
import { createApp } from '../src/server/server'
import type { StoreBackend, StoreSuiteOptions } from './_store-suite'

/** Listens on a random port; resolves with the server and its origin. */
export async function listenOnFreePort(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
}

/** The example server's app on `store`, really listening; resolves with the log's URL. */
export async function startExampleServer(
  store: MovieLogStore,
  logOptions?: MovieLogOptions,
): Promise<{ url: string; server: Server }> {
  const log = createMovieLog(store, logOptions)
  const server = createServer(toNodeHandler(createApp(log)))
  // The log's store connection goes with the server.
  server.on('close', () => void log.close().catch(() => {}))
  return { url: `${await listenOnFreePort(server)}/movies`, server }
}

/**
 * The store suite through the client: every log the suite opens is the example server on that
 * store, listening, reached with `createMovieLogClient`.
 */
export function throughTheClient(backend: StoreBackend): [StoreBackend, StoreSuiteOptions] {
  const servers: Server[] = []
  const unreachable = new Set<unknown>()
  const wrapped: StoreBackend = {
    ...backend,
    openUnreachable: async () => {
      const store = await backend.openUnreachable()
      unreachable.add(store)
      return store
    },
    closeAll: async () => {
      await Promise.all(servers.splice(0).map(closeServer))
      await backend.closeAll()
    },
  }
  const connect = async (store: MovieLogStore, options?: MovieLogOptions) => {
    // The client loads its feed reader on the first watch, as a browser fetches a chunk once;
    // here that first load is vite transforming it, seconds on a busy machine, within a watch
    // test's window: loaded before, as an app that watched once has it.
    await import('../src/client/watch')
    const { url, server } = await startExampleServer(store, options)
    servers.push(server)
    // A store that never comes back answers 503 with Retry-After: 5; waiting out the retries
    // would only make the test slower. Every other log retries as a user's would.
    const clientOptions: MovieLogClientOptions = unreachable.has(store) ? { retries: 0 } : {}
    return createMovieLogClient(url, clientOptions)
  }
  return [wrapped, { name: 'through the client', connect, keepsCallOrder: false }]
}
