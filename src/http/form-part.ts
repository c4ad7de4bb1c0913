/**
 * One named part of a `multipart/form-data` body, read no further than that part: what follows
 * it (Plex's `thumb` image) is never read, so its size does not matter and it is never held.
 */
import {
  MaxFileSizeExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseMultipartRequest,
} from '@remix-run/multipart-parser'

export type FormPartResult =
  | { ok: true; bytes: Uint8Array }
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
  try {
    // The parser stops reading when this loop is left: the body's rest is never read.
    for await (const part of parseMultipartRequest(request, {
      maxFileSize: maxBytes,
      maxTotalSize: maxBytes,
    })) {
      if (part.name === name) return { ok: true, bytes: part.bytes }
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
  return { ok: false, status: 400, detail: `The form has no '${name}' part.` }
}
