/** @module movie-log/node: serve a movie log from node:http, Express, Connect or Fastify. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { FastResponse, NodeRequest, sendNodeResponse } from 'srvx/node'
import type { MovieLog, MovieLogs } from '../src/core/movie-log'
import type { MovieLogHttpOptions } from '../src/http/options'
import { createMovieLogReplier } from '../src/http/replier'
import { reasonPhrase } from '../src/http/reply'

export type { CorsOrigins } from '../src/http/cors'
export { readsBodiesFromNode } from '../src/http/node-body'
export type { AuthorizeResult, MovieLogAction, MovieLogHttpOptions } from '../src/http/options'

/**
 * A Node request handler, and Connect-style middleware: `next`, when given, receives an error
 * the handler could not answer itself.
 *
 * @example
 * ```ts
 * const handler: MovieLogNodeHandler = toNodeHandler(log)
 * createServer(handler).listen(3000)
 * ```
 */
export type MovieLogNodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => Promise<void>

/**
 * Turns a movie log into a Node handler for node:http, Express, Connect-style stacks and
 * Fastify. It answers every request it is given as the web handler does: mount it at
 * `options.basePath` (default `/movies`); hosts that strip the prefix, as Express's `app.use`
 * does, work too. A body a parser in front already read (`express.json()`: `req.body` set, the
 * stream consumed) is taken as the body, with the same rules and `maxBodyBytes`.
 *
 * @example
 * ```ts
 * import express from 'express'
 * import { createMovieLog } from 'movie-log'
 * import { toNodeHandler } from 'movie-log/node'
 *
 * const app = express()
 * app.use('/movies', toNodeHandler(createMovieLog()))
 * ```
 */
export function toNodeHandler(
  log: MovieLog | MovieLogs,
  options?: MovieLogHttpOptions,
): MovieLogNodeHandler {
  const reply = createMovieLogReplier(log, options)
  return async (req, res, next) => {
    try {
      const request = new NodeRequest({ req, res })
      const { status, headers, body } = await reply(request, new URL(request.url))
      const init = { status, statusText: reasonPhrase(status), headers }
      await sendNodeResponse(res, new FastResponse(body, init))
    } catch (error) {
      // Only the writing of the answer can fail here: the contract answers its own errors.
      if (next) next(error)
      else res.destroy(error instanceof Error ? error : undefined)
    }
  }
}
