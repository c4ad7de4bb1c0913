import { concatBytes } from '../core/bytes'
import { ClientGoneError, preReadNodeBody, readNodeBody, unreadNodeRequest } from './node-body'

/** Why a request body could not be read (as JSON). */
type BodyProblem = { status: 413; detail: string } | { status: 400; detail: string }

export type BodyResult = { ok: true; value: unknown } | ({ ok: false } & BodyProblem)
/** A body read as bytes, or why not. */
export type BytesResult = { ok: true; bytes: Uint8Array } | ({ ok: false } & BodyProblem)

const decoder = new TextDecoder('utf-8', { fatal: true })
const encoder = new TextEncoder()

/**
 * Reads a JSON body of at most `maxBytes`, by the fastest read each host offers: from Node's
 * request behind srvx's (h3, srvx), else the host's own `arrayBuffer()` when the length is
 * declared (Bun, Deno, @hono/node-server, workerd), streamed only when it is not. A body that
 * declares or reaches more is refused as soon as that is known: the rest is never read, so a
 * large upload cannot fill memory. Bodies are left unread, never cancelled: on Node a
 * cancelled body destroys the request before its answer is written, and listhen's shutdown
 * hook then throws on the missing socket.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyResult> {
  const read = await readBody(request, maxBytes)
  if (!read.ok) return read
  return 'bytes' in read ? parseJson(read.bytes) : { ok: true, value: read.parsed }
}

/**
 * Reads a body of at most `maxBytes` as bytes, as readJsonBody reads it (a value a parser in
 * front already parsed is its JSON text).
 */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<BytesResult> {
  const read = await readBody(request, maxBytes)
  if (!read.ok || 'bytes' in read) return read
  return { ok: true, bytes: encoder.encode(JSON.stringify(read.parsed)) }
}

async function readBody(
  request: Request,
  maxBytes: number,
): Promise<BytesResult | { ok: true; parsed: unknown }> {
  const header = request.headers.get('content-length')
  const declared = header === null ? undefined : Number(header)
  if (declared !== undefined && declared > maxBytes) return tooLarge(maxBytes)
  const node = unreadNodeRequest(request)
  // srvx's limit, where it is the smaller, answered as srvx answers it: the server's limit.
  const hostLimit = node?.hostLimit ?? Number.POSITIVE_INFINITY
  if (declared !== undefined && declared > hostLimit) return tooLarge()

  const preRead = node ? undefined : preReadNodeBody(request)
  if (preRead) return preReadBody(preRead.value, maxBytes)

  const limit = Math.min(maxBytes, hostLimit)
  let chunks: Uint8Array[] | undefined
  try {
    chunks = node
      ? await readNodeBody(node.stream, limit, declared)
      : Number.isSafeInteger(declared) && !(request as SrvxRequest).runtime?.node
        ? await readWholeBody(request, limit)
        : await readWebBody(request, limit)
  } catch (error) {
    // A limit of the host in front (h3's bodyLimit, srvx's BodyTooLargeError) says so itself.
    if (statusOf(error) === 413) return tooLarge()
    // The client stopped sending (it aborted, or the connection broke): its fault, not ours.
    if (clientWentAway(request, error)) {
      return { ok: false, status: 400, detail: 'The request body could not be read to its end.' }
    }
    throw error // anything else is a bug: a 500, for onError to see
  }
  if (chunks === undefined) return tooLarge(limit < maxBytes ? undefined : maxBytes)
  return { ok: true, bytes: concatBytes(chunks) }
}

/** A Request that srvx made on Node, whose body the web path reads through srvx's stream. */
type SrvxRequest = { runtime?: { node?: object } }

/**
 * A body of a declared length, read by the host's own `arrayBuffer()`, which fills one buffer
 * natively. Servers deliver no more than the declared length; a Request made in process may
 * carry more, and is then refused all the same.
 */
async function readWholeBody(request: Request, maxBytes: number) {
  const bytes = new Uint8Array(await request.arrayBuffer())
  return bytes.byteLength > maxBytes ? undefined : [bytes]
}

/**
 * A body a parser in front already read, under the same rules: bytes or text (`express.raw()`,
 * `express.text()`) are read as if they had just arrived; a value it parsed (`express.json()`)
 * counts as its JSON text for the size limit.
 */
function preReadBody(value: unknown, limit: number): BytesResult | { ok: true; parsed: unknown } {
  const bytes =
    value instanceof Uint8Array
      ? value
      : encoder.encode(typeof value === 'string' ? value : JSON.stringify(value))
  if (bytes.byteLength > limit) return tooLarge(limit)
  return typeof value === 'string' || value instanceof Uint8Array
    ? { ok: true, bytes }
    : { ok: true, parsed: value }
}

/** Bytes as JSON: 400 for text that is not UTF-8 or not JSON, without quoting it back. */
export function parseJson(bytes: Uint8Array): BodyResult {
  let text: string
  try {
    text = decoder.decode(bytes)
  } catch {
    return { ok: false, status: 400, detail: 'The request body is not valid UTF-8.' }
  }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    if (text.trim() === '') return { ok: false, status: 400, detail: 'The request body is empty.' }
    // The parser's message quotes the body back: the client sent it, nobody else needs it echoed.
    return { ok: false, status: 400, detail: 'The request body is not valid JSON.' }
  }
}

function tooLarge(limit?: number): { ok: false } & BodyProblem {
  const of = limit === undefined ? "the server's limit" : `the limit of ${limit} bytes`
  return { ok: false, status: 413, detail: `The request body is larger than ${of}.` }
}

// Errors of a connection the client broke off, as Node and the web runtimes raise them.
const CLIENT_GONE_CODES = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
])

/**
 * Whether a failed read was the connection's doing: the client aborted, or the connection broke
 * off (an `AbortError`, or a connection error's code). Any other error is not the client's.
 */
function clientWentAway(request: Request, error: unknown): boolean {
  if (request.signal?.aborted || error instanceof ClientGoneError) return true
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown }
  return name === 'AbortError' || (typeof code === 'string' && CLIENT_GONE_CODES.has(code))
}

// The HTTP status an error of the host carries (h3's HTTPError, srvx's BodyTooLargeError).
function statusOf(error: unknown): unknown {
  const { status, statusCode } = (error ?? {}) as { status?: unknown; statusCode?: unknown }
  return status ?? statusCode
}

/** The body's chunks, or `undefined` once it passes `maxBytes` (the rest is left unread). */
async function readWebBody(request: Request, maxBytes: number): Promise<Uint8Array[] | undefined> {
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
  return chunks
}
