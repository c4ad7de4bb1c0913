/** An import file (NDJSON, the log's CSV, IMDb's ratings CSV) as import rows, read as a stream. */
import { createReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import { parse } from 'csv-parse'
import { isImdbHeader, movieFromImdb } from '../formats/imdb'
import { MOVIE_CSV_COLUMNS, movieFromCsv } from '../formats/movie-csv'
import type { ImportRow } from '../index'
import { readNdjson } from './read-ndjson'

/** The formats `movie-log import` reads; `auto` tells them apart by the first bytes. */
export const IMPORT_FORMATS = ['auto', 'ndjson', 'csv', 'imdb'] as const
export type ImportFormat = (typeof IMPORT_FORMATS)[number]

/** The rows of `file` (`-`: standard input), and how many bytes were read so far. */
export async function readRows(
  file: string,
  format: ImportFormat,
): Promise<{ rows: AsyncIterable<ImportRow>; bytesRead: () => number }> {
  const input = file === '-' ? process.stdin : createReadStream(file)
  let bytes = 0
  input.on('data', (chunk: Buffer) => {
    bytes += chunk.length
  })
  const source = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>
  const first = await source.next()
  // The first chunk, read to tell the format, goes back in front of the rest.
  const stream = Readable.from(replay(first, source))
  const head = first.done ? '' : first.value.toString('utf8', 0, 64).replace(/^\uFEFF/, '')
  const kind = format === 'auto' ? (/^\s*\{/.test(head) ? 'ndjson' : 'any-csv') : format
  const rows = kind === 'ndjson' ? readNdjson(stream) : readCsv(stream, kind)
  return { rows, bytesRead: () => bytes }
}

async function* replay(first: IteratorResult<Buffer>, rest: AsyncIterator<Buffer>) {
  if (first.done) return
  yield first.value
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value
}

/** Records of a CSV with their first line; the header (first record) decides what they are. */
async function* readCsv(stream: Readable, kind: 'csv' | 'imdb' | 'any-csv') {
  const parser = stream.pipe(
    parse({ bom: true, info: true, raw: true, relax_column_count: true, skip_empty_lines: true }),
  )
  let header: string[] | undefined
  let read = movieFromCsv
  for await (const { record, info, raw } of parser as AsyncIterable<CsvRecord>) {
    // info.lines is the record's last line: back up over the line breaks inside it.
    const line = info.lines - (raw.replace(/\r?\n$/, '').match(/\n/g)?.length ?? 0)
    if (!header) {
      header = record.map((cell) => cell.trim())
      read = pickReader(header, kind)
      continue
    }
    yield { line, ...read(header, record) }
  }
}

interface CsvRecord {
  record: string[]
  info: { lines: number }
  raw: string
}

function pickReader(header: string[], kind: 'csv' | 'imdb' | 'any-csv') {
  if (kind === 'imdb' || (kind === 'any-csv' && isImdbHeader(header))) {
    if (!isImdbHeader(header)) {
      throw new Error(
        'line 1: not an IMDb ratings export (it needs the columns Const, Date Rated and URL)',
      )
    }
    return movieFromImdb
  }
  const unknown = header.filter(
    (column) => !(MOVIE_CSV_COLUMNS as readonly string[]).includes(column),
  )
  if (unknown.length > 0) {
    throw new Error(
      `line 1: the CSV header has ${unknown.map((c) => `'${c}'`).join(', ')}: the columns are ${MOVIE_CSV_COLUMNS.join(',')} (or an IMDb ratings export)`,
    )
  }
  return movieFromCsv
}
