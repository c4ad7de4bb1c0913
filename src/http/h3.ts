// The log as an h3 v2 app: the body of `movie-log/h3` (adapters/h3.ts), and what the server mounts.
import { defineHandler, H3, type H3Event, HTTPResponse } from 'h3'
import { FastResponse } from 'srvx'
import type { MovieLog, MovieLogs } from '../core/movie-log'
import type { MovieLogHttpOptions } from './options'
import { hostErrorReply } from './problem'
import { createMovieLogReplier, type MovieLogReplier } from './replier'
import { reasonPhrase, toWebResponse } from './reply'

const ANY_PATH = '/**'
// The collection gets a route of its own: mounted, it is a static route, found without the
// path walk that a wildcard route needs.
const COLLECTION_PATH = '/'

/**
 * Turns a movie log into an h3 v2 app to mount: `app.mount('/movies', toH3Handler(log))`. Its
 * routes join the parent app's router, so a mounted log costs no more than a route of its own.
 * It answers exactly as the web handler does. Served as an app of its own, the errors h3 raises
 * before the log sees a request (a malformed URL such as `/%zz`) are problem details too;
 * mounted, they are the parent app's to answer (its `onError`).
 *
 * @example
 * ```ts
 * import { H3 } from 'h3'
 * import { createMovieLog } from 'movie-log'
 * import { toH3Handler } from 'movie-log/h3'
 *
 * const app = new H3().mount('/movies', toH3Handler(createMovieLog()))
 * ```
 */
export function toH3Handler(log: MovieLog | MovieLogs, options?: MovieLogHttpOptions): H3 {
  return h3AppOf(createMovieLogReplier(log, options))
}

/**
 * The h3 app of a replier: what `toH3Handler` returns, for a host (the server) that answers
 * other paths through the same replier, so its limits hold across them.
 */
export function h3AppOf(reply: MovieLogReplier): H3 {
  const handler = defineHandler(async (event) => {
    const { status, headers, body } = await reply(event.req, event.url, pathInMount(event))
    const init = { status, statusText: reasonPhrase(status), headers }
    // A success as srvx's FastResponse, the class h3 answers with itself: on Node it is written
    // from the header record, with no Headers object made unless a middleware touches one.
    // An error as h3's HTTPResponse: h3 merges the headers a host set on `event.res` (cookies,
    // server-timing) into that one, where a Response of status 400 or more would drop them.
    return status < 400 ? new FastResponse(body, init) : new HTTPResponse(body, init)
  })
  const onError = (error: unknown) => toWebResponse(hostErrorReply(error))
  return new H3({ onError }).all(COLLECTION_PATH, handler).all(ANY_PATH, handler)
}

// Mounted at /x, the route h3 matched is /x/** or /x/: the log sees the path below /x.
function pathInMount(event: H3Event): string {
  const route = event.context.matchedRoute?.route ?? ANY_PATH
  const mount = route.endsWith(ANY_PATH)
    ? route.slice(0, -ANY_PATH.length)
    : route.endsWith(COLLECTION_PATH)
      ? route.slice(0, -COLLECTION_PATH.length)
      : ''
  const { pathname } = event.url
  return mount && pathname.startsWith(mount) ? pathname.slice(mount.length) : pathname
}
