/**
 * An import file cut into its records, NDJSON lines or CSV records, without ever holding more
 * than one record of at most `MAX_RECORD_BYTES`: a longer one is refused as soon as it passes
 * the bound, and the rest of it is read past, not kept. Each record is checked to be UTF-8.
 */
import { concatBytes } from '../core/bytes'

// A record's bytes are checked to be UTF-8 as they are cut out: fatal, so a bad byte throws.
const utf8 = new TextDecoder('utf-8', { fatal: true })
const isUtf8 = (bytes: Uint8Array): boolean => {
  try {
    utf8.decode(bytes)
    return true
  } catch {
    return false
  }
}

/**
 * The most an import record may take. A movie is at most about 25 KB of JSON or CSV; written
 * with every character escaped (`\ud83c\udfac` for each of 10,000 emoji of notes) about 140 KB.
 */
export const MAX_RECORD_BYTES = 256 * 1024

/** What a file is cut into, in order. */
export type Piece =
  /** A whole record, with the line break that ends it, and the line it starts on (from 1). */
  | { line: number; bytes: Uint8Array }
  /** A record refused: longer than the bound (said once it passes it), or not UTF-8. */
  | { line: number; refused: string }

const LF = 0x0a
const CR = 0x0d
const QUOTE = 0x22

/**
 * Cuts `chunks` into records: a record ends at a line break (LF and CR LF, or CR in a file of
 * lone CRs), with `quotes` (CSV) only at one outside double quotes, so a quoted cell can hold
 * line breaks. Lines are numbered as an editor numbers them (CR LF, LF and CR each end one).
 */
export async function* splitRecords(
  chunks: AsyncIterable<Uint8Array>,
  { quotes, max = MAX_RECORD_BYTES }: { quotes: boolean; max?: number },
): AsyncGenerator<Piece> {
  let parts: Uint8Array[] = []
  let size = 0
  let long = false
  let start = 1 // the line the record starts on
  let line = 1 // the line being read
  let quoted = false

  // A record past the bound is read past from then on: its bytes are not kept.
  const add = (bytes: Uint8Array): Piece | undefined => {
    if (long) return undefined
    if (size + bytes.length <= max) {
      parts.push(bytes)
      size += bytes.length
      return undefined
    }
    long = true
    parts = []
    size = 0
    return { line: start, refused: `longer than ${max / 1024} KiB, more than any movie takes` }
  }
  const end = (): Piece | undefined => {
    const bytes = long ? undefined : concatBytes(parts)
    const piece =
      bytes && (isUtf8(bytes) ? { line: start, bytes } : { line: start, refused: NOT_UTF8 })
    parts = []
    size = 0
    long = false
    start = line
    return piece
  }

  // What ends a record: LF (and so CR LF) or a lone CR, as the first line break outside quotes
  // shows, the way a CSV parser tells; a CR last in a chunk waits for the next one to say.
  let ending: number | undefined
  let crLast = false
  let decideNext = false
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue
    if (decideNext) {
      decideNext = false
      ending = chunk[0] === LF ? LF : CR
      const piece = ending === CR ? end() : undefined
      if (piece) yield piece
    }
    let from = 0
    // The next quote, LF and CR, each found by indexOf (memchr): bytes between are only copied.
    let quote = quotes ? indexOf(chunk, QUOTE, 0) : chunk.length
    let lf = indexOf(chunk, LF, 0)
    let cr = indexOf(chunk, CR, 0)
    for (;;) {
      const at = Math.min(quote, lf, cr)
      if (at === chunk.length) break
      const byte = chunk[at]
      if (byte === QUOTE) {
        quoted = !quoted
        quote = indexOf(chunk, QUOTE, at + 1)
        continue
      }
      if (byte === LF) {
        lf = indexOf(chunk, LF, at + 1)
        if (!(at > 0 ? chunk[at - 1] === CR : crLast)) line += 1
      } else {
        cr = indexOf(chunk, CR, at + 1)
        line += 1
      }
      if (quoted) continue
      if (ending === undefined) {
        if (byte === LF) ending = LF
        else if (at + 1 < chunk.length) ending = chunk[at + 1] === LF ? LF : CR
        else decideNext = true
      }
      if (byte !== ending) continue
      const refusal = add(chunk.subarray(from, at + 1))
      if (refusal) yield refusal
      const piece = end()
      if (piece) yield piece
      from = at + 1
    }
    const refusal = from < chunk.length ? add(chunk.subarray(from)) : undefined
    if (refusal) yield refusal
    crLast = chunk[chunk.length - 1] === CR
  }
  const last = size > 0 || long ? end() : undefined
  if (last) yield last
}

/** Where `byte` is next in `chunk` from `from`, or the chunk's length if nowhere. */
function indexOf(chunk: Uint8Array, byte: number, from: number): number {
  const at = chunk.indexOf(byte, from)
  return at === -1 ? chunk.length : at
}

const NOT_UTF8 =
  'is not valid UTF-8 (a file saved as Latin-1 or Windows-1252? save it as UTF-8 and import it again)'
