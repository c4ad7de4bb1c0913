/**
 * Reading a POST body straight from Node's request, for a `Request` that srvx made (h3 v2 and
 * srvx on Node), through what srvx documents of it: `request.runtime.node.req`, Node's
 * `IncomingMessage`. The core imports nothing of Node's http: it uses the few stream calls below.
 */

interface NodeRequestStream {
  readable: boolean
  readableDidRead: boolean
  /** `null` while nothing consumes the stream: no 'data' or 'readable' listener, no pipe. */
  readableFlowing: boolean | null
  /** Node's `IncomingMessage.complete`: the whole message has been received and parsed. */
  complete?: boolean
  readableLength: number
  read(): Uint8Array | null
  resume(): unknown
  on(event: string, listener: (this: NodeRequestStream, ...args: never[]) => void): unknown
  off(event: string, listener: (this: NodeRequestStream, ...args: never[]) => void): unknown
  pause(): unknown
}

/** What srvx documents of the Node request behind its `Request` (`ServerRuntimeContext`). */
type SrvxRequest = { runtime?: { node?: { req?: object } } }

// Marks the Node requests whose bodies the log may read itself: handed over by a Node handler
// that turns them into srvx's Requests with no body limit of srvx's own (movie-log/node; a
// server whose handler is wrapped in `readsBodiesFromNode`). srvx's `maxRequestBodySize`
// applies only to reads through the Request, and srvx does not say whether a Request has one: a
// Request not marked is read through `request.body`, where srvx's limit, if any, answers 413.
// A symbol of movie-log's own on the request, not a WeakSet: an entry per request cost about a
// microsecond a POST, much of it the garbage collector's.
const DIRECT_BODY = Symbol('movie-log.directBody')

/**
 * Lets the log read the body of `req` straight from Node: for a handler that makes its srvx
 * Request itself, without srvx's `maxRequestBodySize` (`new NodeRequest({ req, res })`).
 */
export function readBodyFromNode(req: object): void {
  // GET and HEAD bodies are never read: their requests stay unmarked.
  const { method } = req as { method?: unknown }
  if (method !== 'GET' && method !== 'HEAD') (req as Record<symbol, boolean>)[DIRECT_BODY] = true
}

/**
 * A Node handler that lets the log read the bodies of the requests it receives straight from
 * Node: for a server that turns Node's requests into srvx's with no body limit of srvx's, such
 * as h3's `toNodeHandler(app)` served by node:http or listhen. Never wrap srvx's `serve()` given
 * a `maxRequestBodySize`: this read does not see that limit.
 */
export function readsBodiesFromNode<Req extends object, Res, Result>(
  handler: (req: Req, res: Res) => Result,
): (req: Req, res: Res) => Result {
  return (req, res) => {
    readBodyFromNode(req)
    return handler(req, res)
  }
}

/**
 * The Node request behind a Request that srvx made, if the log may read it itself (see
 * `DIRECT_BODY`) and nothing consumes its body yet. Reading it directly skips the web
 * stream srvx would build around it, the larger part of the cost of a small POST. Once anything
 * has touched the body (srvx's stream, h3's `bodyLimit`, a body parser), the stream is theirs:
 * `undefined`, and the web path reads it.
 */
export function unreadNodeRequest(request: Request): NodeRequestStream | undefined {
  const req = (request as SrvxRequest).runtime?.node?.req
  if (req === undefined || (req as Record<symbol, unknown>)[DIRECT_BODY] !== true) return undefined
  const stream = req as Partial<NodeRequestStream>
  const unread =
    typeof stream.on === 'function' &&
    stream.readable === true &&
    stream.readableDidRead === false &&
    stream.readableFlowing === null
  return unread ? (stream as NodeRequestStream) : undefined
}

/**
 * The body a parser in front of the log already read from Node's request (`express.json()`,
 * body-parser, `express.raw()`...): what it left on `req.body`, once the stream has been read.
 * `undefined` when there is none, or the stream is still unread (Express 4's body-parser sets
 * `req.body = {}` on requests it does not parse).
 */
export function preReadNodeBody(request: Request): { value: unknown } | undefined {
  const stream = (request as SrvxRequest).runtime?.node?.req as
    | (Partial<NodeRequestStream> & { body?: unknown })
    | undefined
  if (stream?.body === undefined || stream.readableDidRead !== true) return undefined
  return { value: stream.body }
}

interface PendingBody {
  chunks: Uint8Array[]
  size: number
  maxBytes: number
  resolve: (chunks: Uint8Array[] | undefined) => void
  reject: (error: Error) => void
}

// The listeners are the same four functions for every request (Node calls them with the
// request as `this`), with the state of each read kept here: no closures made per request.
const pendingBodies = new WeakMap<NodeRequestStream, PendingBody>()

/**
 * The body's chunks, or `undefined` once it passes `maxBytes` (the rest is left unread).
 * `declaredBytes`: the request's Content-Length, if it has one.
 */
export async function readNodeBody(
  source: NodeRequestStream,
  maxBytes: number,
  declaredBytes?: number,
): Promise<Uint8Array[] | undefined> {
  // The request is handed over as soon as its headers are parsed; what came with them, a small
  // body usually, is buffered by the next microtask, all its bytes but not yet marked complete.
  // A body that is then all here (as many bytes as declared, which Node never exceeds, or the
  // whole message parsed) is taken in one read, without the listeners and the turns of
  // streaming it.
  await undefined
  const buffered = source.readableLength
  if ((source.complete === true || buffered === declaredBytes) && buffered <= maxBytes) {
    const body = source.read()
    // Flowing, the request ends itself once Node marks it complete, and emits 'end' and 'close'.
    if (source.complete !== true) source.resume()
    return body === null ? [] : [body]
  }
  return readAsItArrives(source, maxBytes)
}

function readAsItArrives(
  source: NodeRequestStream,
  maxBytes: number,
): Promise<Uint8Array[] | undefined> {
  return new Promise((resolve, reject) => {
    pendingBodies.set(source, { chunks: [], size: 0, maxBytes, resolve, reject })
    source.on('data', onBodyData)
    source.on('end', onBodyEnd)
    source.on('error', onBodyError)
    source.on('close', onBodyClose)
  })
}

function onBodyData(this: NodeRequestStream, chunk: Uint8Array): void {
  const body = pendingBodies.get(this) as PendingBody
  body.size += chunk.byteLength
  if (body.size <= body.maxBytes) {
    body.chunks.push(chunk)
    return
  }
  // Past the limit: stop reading and leave the rest unread.
  settle(this)
  this.pause()
  body.resolve(undefined)
}

function onBodyEnd(this: NodeRequestStream): void {
  const body = settle(this)
  body.resolve(body.chunks)
}

function onBodyError(this: NodeRequestStream, error: Error): void {
  settle(this).reject(error)
}

function onBodyClose(this: NodeRequestStream): void {
  settle(this).reject(new ClientGoneError())
}

/** The client closed the connection before sending the whole body: its fault, not a bug of ours. */
export class ClientGoneError extends Error {
  override name = 'ClientGoneError'
  constructor() {
    super('the client closed the connection before sending the whole body')
  }
}

function settle(source: NodeRequestStream): PendingBody {
  source.off('data', onBodyData)
  source.off('end', onBodyEnd)
  source.off('error', onBodyError)
  source.off('close', onBodyClose)
  const body = pendingBodies.get(source) as PendingBody
  pendingBodies.delete(source)
  return body
}
