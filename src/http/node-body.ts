/**
 * The body a parser in front of the log already read from Node's request, through what srvx
 * documents of the Node request behind its `Request` (`request.runtime.node.req`). Bodies the
 * log reads itself go through the `Request`'s own documented `body` stream (body.ts), where a
 * limit of srvx's (`maxRequestBodySize`), if any, answers too.
 */

/** What srvx documents of the Node request behind its `Request` (`ServerRuntimeContext`). */
type SrvxRequest = { runtime?: { node?: { req?: object } } }

/**
 * The body a parser in front of the log already read from Node's request (`express.json()`,
 * body-parser, `express.raw()`...): what it left on `req.body`, once the stream has been read.
 * `undefined` when there is none, or the stream is still unread (Express 4's body-parser sets
 * `req.body = {}` on requests it does not parse).
 */
export function preReadNodeBody(request: Request): { value: unknown } | undefined {
  const stream = (request as SrvxRequest).runtime?.node?.req as
    | { body?: unknown; readableDidRead?: boolean }
    | undefined
  if (stream?.body === undefined || stream.readableDidRead !== true) return undefined
  return { value: stream.body }
}
