/**
 * The example server's request log: one line per request, `POST /movies 201 3.1ms`, written once
 * the response has been sent; a failed request's line says why.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import type { IncomingMessage, ServerResponse } from 'node:http'

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => unknown

const startedAt = Symbol('startedAt')
const explained = Symbol('explained')
type TimedResponse = ServerResponse & { [startedAt]?: number; [explained]?: string }

// Node publishes every finished response here: read from the channel, the log adds no listener
// to each response (Node's own and listhen's shutdown tracker are on it already).
const RESPONSE_FINISHED = 'http.server.response.finish'

interface ResponseFinished {
  request: IncomingMessage
  response: TimedResponse
  server: object
}

export interface RequestLog {
  /** The handler, noting when each request began. */
  timed(handle: NodeHandler): NodeHandler
  /** Adds `text` to the line of the request `response` answers (why it failed, say). */
  explain(response: ServerResponse, text: string): void
  /** Logs the requests `server` answers, until the returned function is called. */
  follow(server: object): () => void
}

export function createRequestLog(log: (line: string) => void): RequestLog {
  return {
    timed: (handle) => (req, res: TimedResponse) => {
      res[startedAt] = performance.now()
      return handle(req, res)
    },
    explain: (response: TimedResponse, text) => {
      response[explained] = text
    },
    follow: (server) => {
      const onFinished = (message: unknown) => {
        const { request, response, server: from } = message as ResponseFinished
        const started = response[startedAt]
        // Other servers in the process publish here too.
        if (from !== server || started === undefined) return
        const ms = (performance.now() - started).toFixed(1)
        const why = response[explained] === undefined ? '' : ` ${response[explained]}`
        log(`${request.method} ${withoutToken(request.url)} ${response.statusCode} ${ms}ms${why}`)
      }
      subscribe(RESPONSE_FINISHED, onFinished)
      return () => unsubscribe(RESPONSE_FINISHED, onFinished)
    },
  }
}

// A scrobble URL may carry its token as `?token=` (media servers cannot set headers): the log
// shows that the parameter was there, never its value, however its name was percent-encoded or
// cased. A near miss is the real token too, typed in the wrong place (`TOKEN=`, `access_token=`,
// `&amp;token=`, `x=1;token=`, and `?x=1/scrobble/plex?token=` from an address printed for a
// `--url` with a query): every name with a secret's word in it is hidden, and `;` and a second
// `?` are read as separators as well as `&`.
const SECRET_NAME = /token|secret|passw|auth|key/i

function withoutToken(url: string | undefined): string | undefined {
  const query = url?.indexOf('?') ?? -1
  if (url === undefined || query === -1) return url
  const parts = url
    .slice(query + 1)
    .split(/([&;?])/)
    .map((part, index) => {
      if (index % 2 === 1 || !SECRET_NAME.test(nameOf(part) ?? part)) return part
      return `${part.split('=')[0]}=***`
    })
  return `${url.slice(0, query)}?${parts.join('')}`
}

function nameOf(pair: string): string | undefined {
  try {
    return decodeURIComponent((pair.split('=')[0] ?? '').replaceAll('+', ' '))
  } catch {
    return undefined
  }
}
