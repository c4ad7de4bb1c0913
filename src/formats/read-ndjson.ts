/** NDJSON as import rows, cut into lines by splitRecords. */
import type { ImportRow } from '../core/import'
import { splitRecords } from './split-records'

const decoder = new TextDecoder()

/**
 * NDJSON as import rows: one JSON object a line, blank lines skipped, a bad line refused (not
 * JSON, not UTF-8, or longer than any movie, which is read past without being held).
 *
 * @example
 * ```ts
 * for await (const row of readNdjson(chunks)) console.log(row.line, row.movie)
 * ```
 */
export async function* readNdjson(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<ImportRow> {
  for await (const piece of splitRecords(chunks, { quotes: false })) {
    const { line } = piece
    if ('refused' in piece) {
      yield { line, issues: [{ path: '', message: piece.refused }] }
      continue
    }
    const text = decoder.decode(piece.bytes)
    const json = line === 1 ? text.replace(/^\uFEFF/, '') : text
    if (json.trim() === '') continue
    try {
      yield { line, movie: JSON.parse(json) }
    } catch {
      yield { line, issues: [{ path: '', message: 'is not valid JSON' }] }
    }
  }
}
