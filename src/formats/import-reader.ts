/**
 * An import file (NDJSON, the log's CSV, or another service's CSV export: an import format) as
 * import rows, read as it comes; a Letterboxd, Trakt or Netflix history is told apart and held
 * whole, for importHistory. Chunks of bytes in, whatever they come from: a file (the command),
 * a request body (the HTTP route).
 */
import { CsvError, parse } from 'csv-parse/sync'
import { concatBytes } from '../core/bytes'
import type { ImportRow } from '../core/import'
import { type ImportFormat, importFormats } from './import-formats'
import { ImportFileError } from './import-refusal'
import { CANDIDATES_COLUMN, MOVIE_CSV_COLUMNS, movieFromCsv } from './movie-csv'
import { listed, printable } from './printable'
import { HISTORY_FORMATS, type HistoryFormat, historyFormatOf, isZip } from './read-history'
import { readNdjson } from './read-ndjson'
import { splitRecords } from './split-records'

/**
 * The formats an import reads, plug-ins included; `auto` tells them apart by the first bytes,
 * then by the CSV header.
 *
 * @example
 * ```ts
 * importFormatNames() // ['auto', 'ndjson', 'csv', 'imdb', 'letterboxd', 'trakt', 'netflix']
 * ```
 */
export const importFormatNames = (): string[] => [
  'auto',
  'ndjson',
  'csv',
  ...importFormats.names(),
  ...HISTORY_FORMATS,
]

/** What a file was found to be: rows to import as they are read, or a history held whole. */
export type ImportSource =
  | { kind: 'rows'; rows: AsyncIterable<ImportRow> }
  | { kind: 'history'; format: HistoryFormat; bytes: Uint8Array }

/**
 * Reads the start of `chunks` (`name` for messages) to tell what it is: for a history, its
 * bytes (at most `maxHistoryBytes`), else its rows as they come. A format that is not one of
 * importFormatNames, or a zip that is not a history, is refused before anything is read on.
 *
 * @example
 * ```ts
 * const source = await readImport(chunks, 'auto', 'ratings.csv', 256 * 1024 * 1024)
 * ```
 */
export async function readImport(
  chunks: AsyncIterable<Uint8Array>,
  format: string,
  name: string,
  maxHistoryBytes: number,
): Promise<ImportSource> {
  if (!importFormatNames().includes(format)) {
    throw new ImportFileError(`'${format}' is not one of ${importFormatNames().join(', ')}`, {
      option: 'format',
    })
  }
  const source = chunks[Symbol.asyncIterator]()
  const first = await source.next()
  // The first chunk, read to tell the format, goes back in front of the rest.
  const all = replay(first, source)
  const history =
    format === 'auto'
      ? first.done
        ? undefined
        : historyFormatOf(first.value)
      : HISTORY_FORMATS.find((known) => known === format)
  if (history) {
    return { kind: 'history', format: history, bytes: await whole(all, name, maxHistoryBytes) }
  }
  if (!first.done && isZip(first.value)) {
    await source.return?.()
    throw new ImportFileError(
      `${name} is a zip archive: movie-log imports a Letterboxd export zipped (format letterboxd or auto), NDJSON or CSV`,
      { unsupported: true },
    )
  }
  const head = first.done ? '' : new TextDecoder().decode(first.value.subarray(0, 64))
  const kind = format === 'auto' ? (/^\s*\{/.test(head) ? 'ndjson' : 'any-csv') : format
  return { kind: 'rows', rows: kind === 'ndjson' ? readNdjson(all) : readCsv(all, kind) }
}

async function whole(chunks: AsyncIterable<Uint8Array>, name: string, max: number) {
  const read: Uint8Array[] = []
  let size = 0
  for await (const chunk of chunks) {
    size += chunk.byteLength
    if (size > max) {
      throw new ImportFileError(
        `${name} is over ${max / 1024 / 1024} MiB: larger than any history export`,
      )
    }
    read.push(chunk)
  }
  return concatBytes(read)
}

async function* replay(first: IteratorResult<Uint8Array>, rest: AsyncIterator<Uint8Array>) {
  if (first.done) return
  yield first.value
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value
}

// Records parsed at once: one parser for many records, few enough to hold a small batch.
const BATCH_RECORDS = 256
const decoder = new TextDecoder()
const CSV_OPTIONS = { bom: true, relax_column_count: true, skip_empty_lines: true } as const

/**
 * Records of a CSV with their first line; the header (first record) decides what they are. The
 * records are cut out first (splitRecords), which numbers their lines: one longer than any
 * movie, or not UTF-8, is refused by its line and never reaches the parser, which reads the
 * rest a batch of whole records at a time.
 */
async function* readCsv(chunks: AsyncIterable<Uint8Array>, kind: string) {
  let header: string[] | undefined
  let read: ImportFormat['read'] = movieFromCsv
  let batch: { line: number; text: string }[] = []
  // The batch's records as rows; the first record of the file is the header.
  function* rowsOf(records: { line: number; record?: string[]; issue?: string }[]) {
    for (const { line, record, issue } of records) {
      if (!header) {
        if (!record) throw headerRefused(line, issue)
        header = record.map((cell) => cell.trim())
        read = pickReader(header, kind, line)
        continue
      }
      yield record
        ? { line, ...read(header, record) }
        : { line, issues: [{ path: '', message: issue as string }] }
    }
  }
  const flush = () => {
    const records = parseBatch(batch)
    batch = []
    return rowsOf(records)
  }
  for await (const piece of splitRecords(chunks, { quotes: true })) {
    if ('refused' in piece) {
      yield* flush()
      yield* rowsOf([{ line: piece.line, issue: piece.refused }])
      continue
    }
    if (!hasCells(piece.bytes, piece.line)) continue
    batch.push({ line: piece.line, text: decoder.decode(piece.bytes) })
    // The header alone first: it decides how the rest is read.
    if (batch.length >= BATCH_RECORDS || !header) yield* flush()
  }
  yield* flush()
}

/** Whole records parsed together; when the parser refuses one, each alone, to name which. */
function parseBatch(batch: { line: number; text: string }[]) {
  if (batch.length === 0) return []
  try {
    const records = parse(batch.map(({ text }) => text).join(''), CSV_OPTIONS) as string[][]
    if (records.length === batch.length) {
      return batch.map(({ line }, index) => ({ line, record: records[index] }))
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error
  }
  return batch.map(({ line, text }) => {
    try {
      return { line, record: (parse(text, CSV_OPTIONS) as string[][])[0] ?? [] }
    } catch (error) {
      if (!(error instanceof CsvError)) throw error
      return { line, issue: `is not valid CSV (${error.message})` }
    }
  })
}

const headerRefused = (line: number, issue: string | undefined) =>
  new ImportFileError(`line ${line} (the CSV header): ${issue}`)

/** Whether a record's bytes hold anything but line breaks (and, on line 1, a BOM). */
function hasCells(bytes: Uint8Array, line: number): boolean {
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
    throw new ImportFileError(
      `line ${line}: the CSV header has '${printable(repeated)}' more than once`,
    )
  }
  const named = kind === 'csv' || kind === 'any-csv' ? undefined : importFormats.find(kind)
  if (named) {
    if (!named.detects(header)) {
      throw new ImportFileError(`line ${line}: not ${named.label} (it needs ${named.needs})`, {
        option: 'format',
      })
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
    throw new ImportFileError(
      `line ${line}: the CSV header has ${listed(unknown, (c) => `'${printable(c)}'`)}: the columns are ${MOVIE_CSV_COLUMNS.join(',')} (or ${others.join(', or ')})`,
      // Of no kind movie-log reads, unless the log's CSV was named: then it is a bad one.
      kind === 'csv' ? { option: 'format' } : { unsupported: true },
    )
  }
  return movieFromCsv
}
