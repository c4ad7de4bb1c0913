import { preReadNodeBody, readNodeBody, unreadNodeRequest } from './node-body'

/** Why a request body could not be read as JSON. */
type BodyProblem = { status: 413; detail: string } | { status: 400; detail: string }

export type BodyResult = { ok: true; value: unknown } | ({ ok: false } & BodyProblem)

const decoder = new TextDecoder('utf-8', { fatal: true })
const encoder = new TextEncoder()

/**
 * Reads a JSON body of at most `maxBytes`. A body that declares or reaches more is refused as
 * soon as that is known: the rest is never read, so a large upload cannot fill memory.
 * Bodies are left unread, never cancelled: on Node a cancelled body destroys the request
 * before its answer is written, and listhen's shutdown hook then throws on the missing socket.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyResult> {
  const node = unreadNodeRequest(request, maxBytes)
  const limit = node?.maxBytes ?? maxBytes
  const header = request.headers.get('content-length')
  const declared = header === null ? undefined : Number(header)
  if (declared !== undefined && declared > limit) return tooLarge(limit)

  const preRead = node ? undefined : preReadNodeBody(request)
  if (preRead) return preReadBody(preRead.value, limit)

  let chunks: Uint8Array[] | undefined
  try {
    chunks = await (node ? readNodeBody(node.stream, limit, declared) : readWebBody(request, limit))
  } catch {
    // The client stopped sending (it aborted, or the connection broke): its fault, not ours.
    return { ok: false, status: 400, detail: 'The request body could not be read to its end.' }
  }
  if (chunks === undefined) return tooLarge(limit)
  return parseJson(concat(chunks))
}

/**
 * A body a parser in front already read, under the same rules: bytes or text (`express.raw()`,
 * `express.text()`) are read as if they had just arrived; a value it parsed (`express.json()`)
 * counts as its JSON text for the size limit.
 */
function preReadBody(value: unknown, limit: number): BodyResult {
  const bytes =
    value instanceof Uint8Array
      ? value
      : encoder.encode(typeof value === 'string' ? value : JSON.stringify(value))
  if (bytes.byteLength > limit) return tooLarge(limit)
  return typeof value === 'string' || value instanceof Uint8Array
    ? parseJson(bytes)
    : { ok: true, value }
}

function parseJson(bytes: Uint8Array): BodyResult {
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

function tooLarge(limit: number): BodyResult {
  return {
    ok: false,
    status: 413,
    detail: `The request body is larger than the limit of ${limit} bytes.`,
  }
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

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array
  let size = 0
  for (const chunk of chunks) size += chunk.byteLength
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}
