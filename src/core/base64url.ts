// base64url (RFC 4648 §5, unpadded) of UTF-8 text, through btoa/atob, which every runtime has.

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** The unpadded base64url of a string's UTF-8 bytes. */
export function toBase64Url(text: string): string {
  return bytesToBase64Url(encoder.encode(text))
}

/** The unpadded base64url of bytes. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

/**
 * The UTF-8 text of base64url (invalid UTF-8 read as U+FFFD), or `undefined` when it is not
 * base64url. Lenient as decoders are: compare `toBase64Url` of the result to require the
 * canonical form.
 */
export function fromBase64Url(encoded: string): string | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded) || encoded.length % 4 === 1) return undefined
  const binary = atob(encoded.replaceAll('-', '+').replaceAll('_', '/'))
  return decoder.decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)))
}
