import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'

// SHA-256 in plain JavaScript: synchronous, and loadable on every runtime (Web Crypto's digest
// is asynchronous, node:crypto is Node's).

/** The SHA-256 of a string's UTF-8 bytes. */
export function sha256Of(text: string): Uint8Array {
  return sha256(utf8ToBytes(text))
}

/** The SHA-256 of a string's UTF-8 bytes, in lowercase hex. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256Of(text))
}

export { bytesToHex }
