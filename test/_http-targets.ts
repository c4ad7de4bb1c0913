import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { H3 } from 'h3'
import { toNodeHandler } from 'h3/node'
import type { MovieLog } from 'movie-log'
import { toH3Handler } from 'movie-log/h3'
import { toNodeHandler as toMovieLogNodeHandler } from 'movie-log/node'
import { type MovieLogHttpOptions, toWebHandler } from 'movie-log/web'
import { normaliseBasePath } from '../src/http/request'
import { createResponseChecker } from './_openapi'

/** One way of serving the log over HTTP, as a test sees it. */
export interface HttpTarget {
  /** Sends a request for `path` (`/movies?limit=2`) and returns the response. */
  fetch(path: string, init?: RequestInit): Promise<Response>
  /** The origin the target's URLs start with. */
  origin: string
  /**
   * The log the target serves, when it is not the one given to the factory: a server in another
   * runtime serves its own, reached through the client.
   */
  log?: MovieLog
  close(): Promise<void>
}

export type HttpTargetFactory = (
  log: MovieLog,
  options?: MovieLogHttpOptions,
) => Promise<HttpTarget>

const TEST_ORIGIN = 'http://movie-log.test'

/** The web handler, called with `Request`s: the host keeps the `/movies` prefix. */
const webHandler: HttpTargetFactory = async (log, options) => {
  const handle = toWebHandler(log, options)
  return {
    origin: TEST_ORIGIN,
    fetch: (path, init) => handle(new Request(TEST_ORIGIN + path, init)),
    close: async () => {},
  }
}

function h3App(log: MovieLog, options?: MovieLogHttpOptions): H3 {
  // silent: an unhandled error must show up as a failing assertion, not a console dump.
  return new H3({ silent: true }).mount('/movies', toH3Handler(log, options))
}

/** An h3 app with the handler mounted at `/movies`: h3 strips the prefix. */
const h3Mounted: HttpTargetFactory = async (log, options) => {
  const app = h3App(log, options)
  return {
    origin: TEST_ORIGIN,
    fetch: async (path, init) => app.fetch(new Request(TEST_ORIGIN + path, init)),
    close: async () => {},
  }
}

/** The h3 app on a real Node server on a random port, reached with real HTTP. */
const listeningServer: HttpTargetFactory = (log, options) =>
  listening(createServer(toNodeHandler(h3App(log, options))))

/** `movie-log/node`'s handler as a node:http server's own, reached with real HTTP. */
const nodeHandler: HttpTargetFactory = (log, options) =>
  listening(createServer(toMovieLogNodeHandler(log, options)))

async function listening(server: Server): Promise<HttpTarget> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    fetch: (path, init) => fetch(origin + path, init),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/**
 * Every response a target gives is checked against the OpenAPI document (test/_openapi.ts), so
 * the code and the document cannot drift apart.
 */
export function checkedAgainstDocument(factory: HttpTargetFactory): HttpTargetFactory {
  return async (log, options) => {
    const target = await factory(log, options)
    const checkResponse = createResponseChecker(normaliseBasePath(options?.basePath ?? '/movies'))
    return {
      ...target,
      fetch: async (path, init) => {
        const response = await target.fetch(path, init)
        const url = new URL(path, target.origin)
        await checkResponse(init?.method ?? 'GET', url, response.clone())
        return response
      },
    }
  }
}

/** The same targets, their answers not checked against the document (the fuzz run's). */
export const UNCHECKED_HTTP_TARGETS: [string, HttpTargetFactory][] = [
  ['web handler', webHandler],
  ['h3 app', h3Mounted],
  ['listening server', listeningServer],
  ['node handler', nodeHandler],
]

export const HTTP_TARGETS: [string, HttpTargetFactory][] = [
  ['web handler', checkedAgainstDocument(webHandler)],
  ['h3 app', checkedAgainstDocument(h3Mounted)],
  ['listening server', checkedAgainstDocument(listeningServer)],
  ['node handler', checkedAgainstDocument(nodeHandler)],
]
