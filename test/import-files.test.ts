import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { createMovieLog, type ImportRow, importMovies } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { describeRefusal } from '../src/cli/import'
import { readNdjson } from '../src/formats/read-ndjson'
import { MAX_RECORD_BYTES, splitRecords } from '../src/formats/split-records'
import { readRows } from './_import-files'
import { tempFolders } from './_temp'

// What `movie-log import` makes of files that are not what they should be: a line longer than
// any movie, bytes that are not UTF-8, a header that names a column twice, hostile names.
const work = tempFolders()('movie-log-import-files-')
const CHUNK = 64 * 1024
const HEADER = 'title,screenedDate,releaseYear,imdbLink,notes\r\n'
const row = (title: string, day: number) =>
  `${title},2024-05-${String(day).padStart(2, '0')}T20:00:00.000,1995,https://www.imdb.com/title/tt0113277/,\r\n`
const json = (title: string) =>
  `${JSON.stringify({ title, screenedDate: '2024-05-01T20:00:00.000', releaseYear: 1995, imdbLink: 'https://www.imdb.com/title/tt0113277/', notes: '' })}\n`

/**
 * `start`, then a 4 MiB run of `x` in chunks of 64 KiB, then `end`, as a file is read; `read()`
 * says how many bytes have been handed to the reader so far.
 */
function longRecord(start: string, end: string) {
  let read = 0
  async function* chunks() {
    const xs = Buffer.alloc(CHUNK, 'x')
    for (const chunk of [Buffer.from(start), ...Array(64).fill(xs), Buffer.from(end)]) {
      read += chunk.length
      yield chunk
    }
  }
  // As the file stream would give them: a reader that holds the record reads all of it first.
  return { chunks: Readable.from(chunks(), { highWaterMark: 1 }), read: () => read }
}

describe('a record longer than any movie', () => {
  it('is refused by its line once past the bound, without reading it whole, and the next is read', async () => {
    const file = longRecord('{"title":"', `"}\n${json('Heat')}`)
    const rows = readNdjson(file.chunks)
    const first = (await rows.next()).value as ImportRow
    // Decided on what the bound holds, a chunk or two of read-ahead past it: not 4 MiB.
    expect(file.read()).toBeLessThanOrEqual(MAX_RECORD_BYTES + 4 * CHUNK)
    expect(first).toEqual({
      line: 1,
      issues: [{ path: '', message: expect.stringMatching(/^longer than 256 KiB/) }],
    })
    expect((await rows.next()).value).toEqual({
      line: 2,
      movie: expect.objectContaining({ title: 'Heat' }),
    })
    expect((await rows.next()).done).toBe(true)
  })

  it('is refused in a CSV, a quoted cell across lines, and held no more than in NDJSON', async () => {
    const file = longRecord('"a\r\nb', `"\r\n${row('Heat', 1)}`)
    const pieces = splitRecords(file.chunks, { quotes: true })
    expect((await pieces.next()).value).toEqual({
      line: 1,
      refused: expect.stringMatching(/^longer than/),
    })
    expect(file.read()).toBeLessThanOrEqual(MAX_RECORD_BYTES + 4 * CHUNK)
    const rest = []
    for await (const piece of pieces) if ('bytes' in piece) rest.push(piece)
    // The cell's own line break counts: Heat is on line 3.
    expect(rest.map(({ line, bytes }) => [line, bytes.toString()])).toContainEqual([
      3,
      row('Heat', 1),
    ])
  })

  it('in a file of a few MB: the rows around it are imported, each refusal by its line', async () => {
    const ndjson = join(work, 'long.ndjson')
    const bad = `${JSON.stringify({ title: 'Bad' })}\n`
    writeFileSync(ndjson, `${json('A')}${json('x'.repeat(3_000_000))}${json('B')}${bad}`)
    // The long cell (3 MB) spans lines 3 to 30,003: B is on line 30,004.
    const csv = join(work, 'long.csv')
    const cell = `"${`${'x'.repeat(98)}\r\n`.repeat(30_000)}"`
    writeFileSync(csv, `${HEADER}${row('A', 1)}${cell}${row('', 2)}${row('B', 3)}Bad\r\n`)
    for (const [file, lines] of [
      [ndjson, [2, 4]],
      [csv, [3, 30_005]],
    ] as const) {
      const log = createMovieLog()
      const report = await importMovies(log, (await readRows(file, 'auto')).rows)
      expect([report.added, report.refused.map((refused) => refused.line)]).toEqual([2, lines])
      expect(describeRefusal(report.refused[0] as never)).toMatch(
        new RegExp(`^line ${lines[0]}: longer than 256 KiB`),
      )
      const { movies } = await log.listMovies()
      expect(movies.map((movie) => movie.title).sort()).toEqual(['A', 'B'])
    }
  })
})

describe('a CSV that is not UTF-8, or names a column twice', () => {
  it('refuses each Latin-1 row by its line, and imports the rest, whatever the line breaks', async () => {
    // A cell over two lines (line 3 and 4) before it: the Latin-1 row is on line 5.
    const cell = `Two,2024-05-04T20:00:00.000,1995,https://www.imdb.com/title/tt0113277/,"one\r\ntwo"\r\n`
    for (const ending of ['\r\n', '\n', '\r']) {
      const file = join(work, 'latin1.csv')
      const lines = (text: string) => text.replaceAll('\r\n', ending)
      writeFileSync(
        file,
        Buffer.concat([
          Buffer.from(lines(HEADER + row('Heat', 1) + cell)),
          Buffer.from(lines(row('Amélie', 2)), 'latin1'),
          Buffer.from(lines(row('Amélie', 3) + row('Bad', 3).replace('1995', 'x'))),
        ]),
      )
      const log = createMovieLog()
      const report = await importMovies(log, (await readRows(file, 'auto')).rows)
      expect([ending, report.refused]).toEqual([
        ending,
        [
          {
            line: 5,
            status: 'refused',
            issues: [{ path: '', message: expect.stringMatching(/^is not valid UTF-8/) }],
          },
          {
            line: 7,
            status: 'refused',
            issues: [expect.objectContaining({ path: 'releaseYear' })],
          },
        ],
      ])
      const titles = (await log.listMovies()).movies.map((movie) => movie.title)
      expect(titles.sort()).toEqual(['Amélie', 'Heat', 'Two'])
    }
  })

  it('refuses a Latin-1 header or a repeated column, naming it, before any row', async () => {
    const latin = join(work, 'latin1-header.csv')
    writeFileSync(latin, Buffer.from(`titl\u00e9,notes\r\n${row('Heat', 1)}`, 'latin1'))
    const repeated = join(work, 'repeated.csv')
    writeFileSync(repeated, `${HEADER.trim()},title\r\n${row('Heat', 1)}Other\r\n`)
    for (const [file, message] of [
      [latin, /^line 1 \(the CSV header\): is not valid UTF-8/],
      [repeated, /^line 1: the CSV header has 'title' more than once$/],
    ] as const) {
      const log = createMovieLog()
      await expect(importMovies(log, (await readRows(file, 'auto')).rows)).rejects.toThrow(message)
      expect((await log.listMovies()).movies).toEqual([])
    }
  })
})

describe("names from the file, as the operator's terminal shows them", () => {
  const ESC = '\u001b'
  it('escapes control characters and cuts long names in a refused row', () => {
    const line = describeRefusal({
      line: 4,
      status: 'refused',
      issues: [
        { path: `${ESC}]0;pwned\u0007`, message: 'is not a movie field' },
        { path: 'y'.repeat(2_000_000), message: 'is not a movie field' },
        ...Array.from({ length: 1000 }, (_, n) => ({
          path: `f${n}`,
          message: 'is not a movie field',
        })),
      ],
    })
    expect(line).toMatch(
      /^line 4: \\u001b\]0;pwned\\u0007: is not a movie field; y{64}…: is not a movie field; /,
    )
    expect(line).toMatch(/; and 992 more$/)
    expect(line).not.toMatch(/\p{Cc}/u)
    expect(line.length).toBeLessThan(1000)
  })

  it('does the same in a refused header, however wide', async () => {
    const file = join(work, 'wide.csv')
    writeFileSync(
      file,
      `${Array.from({ length: 3000 }, (_, n) => `${ESC}[31mcolumn ${n}\u202e`).join(',')}\r\n`,
    )
    const error = await importMovies(createMovieLog(), (await readRows(file, 'csv')).rows).catch(
      (e: Error) => e,
    )
    expect((error as Error).message).toMatch(
      /^line 1: the CSV header has '\\u001b\[31mcolumn 0\\u202e', /,
    )
    expect((error as Error).message).not.toMatch(/\p{Cc}|\u202e/u)
    expect((error as Error).message.length).toBeLessThan(1000)
  })
})
