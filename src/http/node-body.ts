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

/**
 * What srvx documents of the Node request behind its `Request`: `runtime.node` is the context
 * its `NodeRequest` was made with (`NodeRequestContext`), Node's `IncomingMessage` and the body
 * limit srvx was given (`maxRequestBodySize`, from `serve()` or `toNodeHandler`'s options).
 */
type SrvxRequest = { runtime?: { node?: { req?: object; maxRequestBodySize?: unknown } } }

/** A body to read straight from Node, and the host's own limit on it, if it has one. */
export interface NodeBody {
  stream: NodeRequestStream
  /** srvx's `maxRequestBodySize`: answered as the host's limit, as srvx would. */
  hostLimit: number | undefined
}

/**
 * @deprecated Not needed any more: the log reads the bodies of srvx's Requests from Node
 * whichever host made them (h3's `toNodeHandler`, srvx's `serve()`), keeping srvx's
 * `maxRequestBodySize`. Returns `handler` itself.
 *
 * @example
 * ```ts
 * createServer(toNodeHandler(app)).listen(3000) // as it is; no wrapper
 * ```
 */
export function readsBodiesFromNode<Req extends object, Res, Result>(
  handler: (req: Req, res: Res) => Result,
): (req: Req, res: Res) => Result {
  return handler
}

/**
 * The Node request behind a Request that srvx made, if nothing consumes its body yet. Reading
 * it directly skips the web stream srvx would build around it, the larger part of the cost of
 * a small POST (what srvx's own `text()` does, which decodes loosely where the contract
 * refuses a body that is not UTF-8). Once anything has touched the body (srvx's stream, h3's
 * `bodyLimit`, a body parser), the stream is theirs: `undefined`, and the web path reads it.
 */
export function unreadNodeRequest(request: Request): NodeBody | undefined {
  const context = (request as SrvxRequest).runtime?.node
  const stream = context?.req as Partial<NodeRequestStream> | undefined
  const unread =
    typeof stream?.on === 'function' &&
    stream.readable === true &&
    stream.readableDidRead === false &&
    stream.readableFlowing === null
  if (!unread) return undefined
  const limit = context?.maxRequestBodySize
  return {
    stream: stream as NodeRequestStream,
    hostLimit: typeof limit === 'number' && limit >= 0 ? limit : undefined,
  }
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
