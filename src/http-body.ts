/** Why a request body could not be read as JSON. */
type BodyProblem = { status: 413; detail: string } | { status: 400; detail: string }

export type BodyResult = { ok: true; value: unknown } | ({ ok: false } & BodyProblem)

const decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * Reads a JSON body of at most `maxBytes`. A body that declares or reaches more is refused as
 * soon as that is known: the rest is never read, so a large upload cannot fill memory.
 * Bodies are left unread, never cancelled: on Node a cancelled body destroys the request
 * before its answer is written, and listhen's shutdown hook then throws on the missing socket.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyResult> {
  const tooLarge = {
    ok: false,
    status: 413,
    detail: `The request body is larger than the limit of ${maxBytes} bytes.`,
  } as const
  const declared = request.headers.get('content-length')
  if (declared !== null && Number(declared) > maxBytes) return tooLarge

  const source = unreadNodeRequest(request)
  const bytes = await (source ? readNodeBody(source, maxBytes) : readWebBody(request, maxBytes))
  if (bytes === undefined) return tooLarge

  let text: string
  try {
    text = decoder.decode(bytes)
  } catch {
    return { ok: false, status: 400, detail: 'The request body is not valid UTF-8.' }
  }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    if (text.trim() === '') return { ok: false, status: 400, detail: 'The request body is empty.' }
    const reason = error instanceof SyntaxError ? `: ${error.message}` : ''
    return { ok: false, status: 400, detail: `The request body is not valid JSON${reason}` }
  }
}

/** The body's bytes, or `undefined` once it passes `maxBytes` (the rest is left unread). */
async function readWebBody(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = request.body?.getReader()
  while (reader) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      reader.releaseLock()
      return undefined
    }
    chunks.push(value)
  }
  return concat(chunks, size)
}

/** The few stream calls used of Node's `IncomingMessage`: the core imports nothing of Node's http. */
interface NodeRequestStream {
  readable: boolean
  readableDidRead: boolean
  on(event: string, listener: (this: NodeRequestStream, ...args: never[]) => void): unknown
  off(event: string, listener: (this: NodeRequestStream, ...args: never[]) => void): unknown
  pause(): unknown
}

/**
 * The Node request behind a Request that srvx made (h3 v2 and srvx on Node expose it as
 * `request.runtime.node.req`), if nothing has read its body yet. Reading it directly skips the
 * web stream srvx would build around it, the larger part of the cost of a small POST.
 */
function unreadNodeRequest(request: Request): NodeRequestStream | undefined {
  const runtime = (request as { runtime?: { node?: { req?: Partial<NodeRequestStream> } } }).runtime
  const source = runtime?.node?.req
  const usable =
    typeof source?.on === 'function' && source.readable === true && source.readableDidRead === false
  return usable ? (source as NodeRequestStream) : undefined
}

interface PendingBody {
  chunks: Uint8Array[]
  size: number
  maxBytes: number
  resolve: (bytes: Uint8Array | undefined) => void
  reject: (error: Error) => void
}

// The listeners are the same four functions for every request (Node calls them with the
// request as `this`), with the state of each read kept here: no closures made per request.
const pendingBodies = new WeakMap<NodeRequestStream, PendingBody>()

function readNodeBody(
  source: NodeRequestStream,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
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
  body.resolve(concat(body.chunks, body.size))
}

function onBodyError(this: NodeRequestStream, error: Error): void {
  settle(this).reject(error)
}

function onBodyClose(this: NodeRequestStream): void {
  settle(this).reject(new Error('the client closed the connection before sending the whole body'))
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

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}
