/**
 * One named part of a `multipart/form-data` body. What follows it (Plex's `thumb` image) is
 * never held: read and dropped while it stays within the body limit, so that the connection ends
 * cleanly (workerd resets one whose body is left unread under a client still sending), and past
 * the limit left unread, whatever its size.
 */
import {
  getMultipartBoundary,
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseMultipartStream,
} from '@remix-run/multipart-parser'

export type FormPartResult =
  | { ok: true; bytes: Uint8Array /** The body was read to its end. */; ended: boolean }
  | { ok: false; status: 400 | 413; detail: string }

const MULTIPART = /^multipart\/form-data\s*;/i

/** Whether a content type is `multipart/form-data` (with its boundary). */
export const isFormData = (contentType: string | null): boolean =>
  contentType !== null && MULTIPART.test(contentType)

/**
 * The bytes of the part named `name`, at most `maxBytes` (parts read before it count too).
 * Parts before it are read and dropped; reading stops once it is complete.
 */
export async function readFormPart(
  request: Request,
  name: string,
  maxBytes: number,
): Promise<FormPartResult> {
  const boundary = getMultipartBoundary(request.headers.get('content-type') ?? '')
  const body = request.body?.getReader()
  if (!boundary || !body) return { ok: false, status: 400, detail: NOT_MULTIPART }
  const parts = partNames(boundary)
  // The body as the parser reads it, each chunk seen by `parts` on its way: leaving the loop
  // ends the parser's read, and the reader stays this function's, for dropRest.
  const read = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await body.read()
        if (next.done) return controller.close()
        parts.see(next.value)
        controller.enqueue(next.value)
      },
    },
    { highWaterMark: 0 },
  )
  let found: Uint8Array | undefined
  try {
    for await (const part of parseMultipartStream(read, {
      boundary,
      maxFileSize: maxBytes,
      maxTotalSize: maxBytes,
    })) {
      if (part.name === name) {
        found = part.bytes
        break
      }
    }
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) {
      return {
        ok: false,
        status: 413,
        detail: `The '${parts.current() ?? name}' part is larger than the limit of ${maxBytes} bytes.`,
      }
    }
    // The parser's message may quote the body: the client sent it, nobody needs it echoed.
    if (error instanceof MultipartParseError) {
      return { ok: false, status: 400, detail: NOT_MULTIPART }
    }
    throw error
  }
  if (found) return { ok: true, bytes: found, ended: await dropRest(body, maxBytes) }
  return { ok: false, status: 400, detail: `The form has no '${name}' part.` }
}

/**
 * Reads the rest of a body and drops it, up to `maxBytes`: `true` when it ended within them.
 * Past them the rest is left unread (never cancelled: on Node that destroys the request before
 * its answer is written), and the answer closes the connection.
 */
async function dropRest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
): Promise<boolean> {
  let dropped = 0
  while (dropped <= maxBytes) {
    const { done, value } = await reader.read()
    if (done) return true
    dropped += value.byteLength
  }
  reader.releaseLock()
  return false
}

const NOT_MULTIPART = 'The request body is not valid multipart/form-data.'
// The parser reads at most this much of a part's headers (its own default).
const MAX_HEADER_BYTES = 8 * 1024
// One character per byte: the boundary and headers are ASCII, whatever the parts hold.
const bytesAsText = new TextDecoder('latin1')

/**
 * The name of the part a body is in, from the headers seen so far, for a 413 that names the part
 * too large (Plex's `thumb` may come first): the parser does not say which part it was reading.
 * Keeps the end of what it has seen, enough for a delimiter and headers cut across chunks.
 */
function partNames(boundary: string): {
  see(chunk: Uint8Array): void
  current(): string | undefined
} {
  const delimiter = `\r\n--${boundary}\r\n`
  const header = new RegExp(
    `${delimiter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^]*?)\r\n\r\n`,
    'g',
  )
  // The body's first delimiter has no line break before it.
  let seen = '\r\n'
  let name: string | undefined
  return {
    see(chunk) {
      const text = seen + bytesAsText.decode(chunk, { stream: true })
      for (const [, lines] of text.matchAll(header)) {
        // Shown in the answer: a name of a client's making, cut short.
        const named = /\bname="([^"\r\n]*)"/i.exec(lines as string)?.[1]
        name = named !== undefined && named.length > 40 ? `${named.slice(0, 40)}…` : named
      }
      seen = text.slice(-(delimiter.length + MAX_HEADER_BYTES))
    },
    current: () => name,
  }
}
