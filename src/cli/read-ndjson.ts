import type { ImportRow } from '../index'
import { splitRecords } from './split-records'

/**
 * NDJSON as import rows: one JSON object a line, blank lines skipped, a bad line refused (not
 * JSON, not UTF-8, or longer than any movie, which is read past without being held).
 */
export async function* readNdjson(chunks: AsyncIterable<Buffer>): AsyncGenerator<ImportRow> {
  for await (const piece of splitRecords(chunks, { quotes: false })) {
    const { line } = piece
    if ('refused' in piece) {
      yield { line, issues: [{ path: '', message: piece.refused }] }
      continue
    }
    const text = piece.bytes.toString('utf8')
    const json = line === 1 ? text.replace(/^\uFEFF/, '') : text
    if (json.trim() === '') continue
    try {
      yield { line, movie: JSON.parse(json) }
    } catch {
      yield { line, issues: [{ path: '', message: 'is not valid JSON' }] }
    }
  }
}
