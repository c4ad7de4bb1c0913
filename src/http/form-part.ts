/**
 * One named part of a `multipart/form-data` body. What follows it (Plex's `thumb` image) is
 * never held: read and dropped while it stays within the body limit, so that the connection ends
 * cleanly (workerd resets one whose body is left unread under a client still sending), and past
 * the limit left unread, whatever its size.
 */
import {
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseMultipartRequest,
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
  let found: Uint8Array | undefined
  try {
    // Leaving the loop ends the parser's read and releases the body for dropRest.
    for await (const part of parseMultipartRequest(request, {
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
        detail: `The '${name}' part is larger than the limit of ${maxBytes} bytes.`,
      }
    }
    // The parser's message may quote the body: the client sent it, nobody needs it echoed.
    if (error instanceof MultipartParseError) {
      return {
        ok: false,
        status: 400,
        detail: 'The request body is not valid multipart/form-data.',
      }
    }
    throw error
  }
  if (found) return { ok: true, bytes: found, ended: await dropRest(request, maxBytes) }
  return { ok: false, status: 400, detail: `The form has no '${name}' part.` }
}

/**
 * Reads the rest of a body and drops it, up to `maxBytes`: `true` when it ended within them.
 * Past them the rest is left unread (never cancelled: on Node that destroys the request before
 * its answer is written), and the answer closes the connection.
 */
async function dropRest(request: Request, maxBytes: number): Promise<boolean> {
  const reader = request.body?.getReader()
  if (!reader) return true
  let dropped = 0
  while (dropped <= maxBytes) {
    const { done, value } = await reader.read()
    if (done) return true
    dropped += value.byteLength
  }
  reader.releaseLock()
  return false
}
