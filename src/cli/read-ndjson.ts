import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import type { ImportRow } from '../index'

/** NDJSON as import rows: one JSON object a line, blank lines skipped, a bad line refused. */
export async function* readNdjson(stream: Readable): AsyncGenerator<ImportRow> {
  let line = 0
  for await (const text of createInterface({
    input: stream,
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    line += 1
    const json = line === 1 ? text.replace(/^\uFEFF/, '') : text
    if (json.trim() === '') continue
    try {
      yield { line, movie: JSON.parse(json) }
    } catch {
      yield { line, issues: [{ path: '', message: 'is not valid JSON' }] }
    }
  }
}
