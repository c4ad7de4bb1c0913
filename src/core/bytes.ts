/** Bytes read in chunks (a request body, a file), joined. */

/**
 * `chunks` as one array of bytes: the one chunk itself when there is one.
 *
 * @example
 * ```ts
 * concatBytes([Uint8Array.of(1), Uint8Array.of(2, 3)]) // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
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
