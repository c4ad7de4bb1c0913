/**
 * An import file (NDJSON, the log's CSV, or another service's CSV export: an import format) as
 * import rows, read as a stream; a Letterboxd, Trakt or Netflix history is told apart and read
 * whole, for importHistory.
 */
import { createReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import { parse } from 'csv-parse'
import { type ImportFormat, importFormats } from '../formats/import-formats'
import { CANDIDATES_COLUMN, MOVIE_CSV_COLUMNS, movieFromCsv } from '../formats/movie-csv'
import type { ImportRow } from '../index'
import { listed, printable } from './printable'
import { HISTORY_FORMATS, type HistoryFormat, historyFormatOf, isZip } from './read-history'
import { readNdjson } from './read-ndjson'
import { splitRecords } from './split-records'

/**
 * The formats `movie-log import` reads, plug-ins included; `auto` tells them apart by the first
 * bytes, then by the CSV header.
 */
export const importFormatNames = (): string[] => [
  'auto',
  'ndjson',
  'csv',
  ...importFormats.names(),
  ...HISTORY_FORMATS,
]

// A history is read whole (its reviews join its diary, its days' form is told from all of them):
// a bound far above any service's export keeps a wrong file from filling memory.
const MAX_HISTORY_BYTES = 256 * 1024 * 1024

/**
 * The rows of `file` (`-`: standard input), and how many bytes were read so far; for a history
 * (Letterboxd, Trakt, Netflix) its bytes and service instead, and no rows.
 */
export async function readRows(
  file: string,
  format: string,
): Promise<{
  rows: AsyncIterable<ImportRow>
  bytesRead: () => number
  history?: { format: HistoryFormat; bytes: Buffer }
}> {
  const input = file === '-' ? process.stdin : createReadStream(file)
  let bytes = 0
  input.on('data', (chunk: Buffer) => {
    bytes += chunk.length
  })
  const source = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const first = await source.next()
  // The first chunk, read to tell the format, goes back in front of the rest.
  const chunks = replay(first, source)
  const history =
    format === 'auto'
      ? first.done
        ? undefined
        : historyFormatOf(first.value)
      : HISTORY_FORMATS.find((name) => name === format)
  if (history) {
    return {
      rows: noRows(),
      bytesRead: () => bytes,
      history: { format: history, bytes: await whole(chunks, file) },
    }
  }
  if (!first.done && isZip(first.value)) {
    input.destroy()
    throw new Error(
      `${file === '-' ? 'standard input' : file} is a zip archive: movie-log import reads a Letterboxd export zipped (--format letterboxd or auto), NDJSON or CSV`,
    )
  }
  const head = first.done ? '' : first.value.toString('utf8', 0, 64).replace(/^\uFEFF/, '')
  const kind = format === 'auto' ? (/^\s*\{/.test(head) ? 'ndjson' : 'any-csv') : format
  const rows = kind === 'ndjson' ? readNdjson(chunks) : readCsv(chunks, kind)
  return { rows, bytesRead: () => bytes }
}

const noRows = async function* (): AsyncGenerator<ImportRow> {}

async function whole(chunks: AsyncIterable<Buffer>, file: string): Promise<Buffer> {
  const read: Buffer[] = []
  let size = 0
  for await (const chunk of chunks) {
    size += chunk.length
    if (size > MAX_HISTORY_BYTES) {
      throw new Error(
        `${file === '-' ? 'standard input' : file} is over 256 MiB: larger than any history export`,
      )
    }
    read.push(chunk)
  }
  return Buffer.concat(read)
}

async function* replay(first: IteratorResult<Buffer>, rest: AsyncIterator<Buffer>) {
  if (first.done) return
  yield first.value
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value
}

/**
 * Records of a CSV with their first line; the header (first record) decides what they are. The
 * records are cut out first (splitRecords), which numbers their lines: one longer than any
 * movie, or not UTF-8, is refused by its line and never reaches the parser.
 */
async function* readCsv(chunks: AsyncIterable<Buffer>, kind: string) {
  const refused: ImportRow[] = []
  // The line each record starts on, in order: the parser gives a record for each with a cell.
  const lines: number[] = []
  async function* records() {
    for await (const piece of splitRecords(chunks, { quotes: true })) {
      if ('refused' in piece) {
        refused.push({ line: piece.line, issues: [{ path: '', message: piece.refused }] })
      } else {
        if (hasCells(piece.bytes, piece.line)) lines.push(piece.line)
        yield piece.bytes
      }
    }
  }
  const parser = Readable.from(records()).pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true }),
  )
  let header: string[] | undefined
  let read: ImportFormat['read'] = movieFromCsv
  for await (const record of parser as AsyncIterable<string[]>) {
    const line = lines.shift() as number
    // Records refused before this one, in the order of the file.
    while (refused.length > 0 && (refused[0] as ImportRow).line < line) {
      if (!header) throw headerRefused(refused[0] as ImportRow)
      yield refused.shift() as ImportRow
    }
    if (!header) {
      header = record.map((cell) => cell.trim())
      read = pickReader(header, kind, line)
      continue
    }
    yield { line, ...read(header, record) }
  }
  if (!header && refused.length > 0) throw headerRefused(refused[0] as ImportRow)
  yield* refused
}

const headerRefused = ({ line, issues }: ImportRow) =>
  new Error(`line ${line} (the CSV header): ${issues?.[0]?.message}`)

/** Whether a record's bytes hold anything but line breaks (and, on line 1, a BOM). */
function hasCells(bytes: Buffer, line: number): boolean {
  const from = line === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  for (let at = from; at < bytes.length; at++) {
    if (bytes[at] !== 0x0a && bytes[at] !== 0x0d) return true
  }
  return false
}

function pickReader(header: string[], kind: string, line: number): ImportFormat['read'] {
  const seen = new Set<string>()
  const repeated = header.find((column) => seen.size === seen.add(column).size)
  if (repeated !== undefined) {
    throw new Error(`line ${line}: the CSV header has '${printable(repeated)}' more than once`)
  }
  const named = kind === 'csv' || kind === 'any-csv' ? undefined : importFormats.find(kind)
  if (named) {
    if (!named.detects(header)) {
      throw new Error(`line ${line}: not ${named.label} (it needs ${named.needs})`)
    }
    return named.read
  }
  const detected =
    kind === 'any-csv' ? importFormats.all().find((f) => f.detects(header)) : undefined
  if (detected) return detected.read
  // An import's unmatched file, corrected, has its candidates still: read past them.
  const known: readonly string[] = [...MOVIE_CSV_COLUMNS, CANDIDATES_COLUMN]
  const unknown = header.filter((column) => !known.includes(column))
  if (unknown.length > 0) {
    const others = importFormats.all().map((format) => format.label)
    throw new Error(
      `line ${line}: the CSV header has ${listed(unknown, (c) => `'${printable(c)}'`)}: the columns are ${MOVIE_CSV_COLUMNS.join(',')} (or ${others.join(', or ')})`,
    )
  }
  return movieFromCsv
}
