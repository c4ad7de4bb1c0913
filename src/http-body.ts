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
  if (text.trim() === '') return { ok: false, status: 400, detail: 'The request body is empty.' }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
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
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown
  on(event: 'end' | 'close', listener: () => void): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
  off(event: string, listener: (...args: never[]) => void): unknown
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

function readNodeBody(
  source: NodeRequestStream,
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = []
    let size = 0
    const settle = () => {
      source.off('data', onData)
      source.off('end', onEnd)
      source.off('error', onError)
      source.off('close', onClose)
    }
    const onData = (chunk: Uint8Array) => {
      size += chunk.byteLength
      if (size <= maxBytes) return void chunks.push(chunk)
      settle()
      source.pause()
      resolve(undefined)
    }
    const onEnd = () => {
      settle()
      resolve(concat(chunks, size))
    }
    const onError = (error: Error) => {
      settle()
      reject(error)
    }
    const onClose = () => {
      settle()
      reject(new Error('the client closed the connection before sending the whole body'))
    }
    source.on('data', onData)
    source.on('end', onEnd)
    source.on('error', onError)
    source.on('close', onClose)
  })
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
