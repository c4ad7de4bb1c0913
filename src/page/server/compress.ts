/** The diary page's assets compressed (brotli, gzip): by the build, or once by the server. */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Encoded } from './assets'

/** `bytes` compressed both ways, once: a handful of small files, never per request. */
export function encode(bytes: Uint8Array): Required<Encoded> {
  const plain = Buffer.from(bytes)
  return {
    plain,
    gzip: gzipSync(plain, { level: 9 }),
    br: brotliCompressSync(plain, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
      },
    }),
  }
}

/** The compressed copies of assets that a build writes beside them. */
export const COMPRESSED = /\.(br|gz)$/

/** The copies of `bytes` to write beside an asset named `name`: `name.br` and `name.gz`. */
export function compressedCopies(name: string, bytes: Uint8Array): [string, Uint8Array][] {
  const { br, gzip } = encode(bytes)
  return [
    [`${name}.br`, br],
    [`${name}.gz`, gzip],
  ]
}
