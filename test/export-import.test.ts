import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type ClosableMovieLog,
  createMovieLog,
  importMovies,
  type Movie,
  type MovieLog,
} from 'movie-log'
import { afterAll, describe, expect, it } from 'vitest'
import { writeExport } from '../src/cli/export'
import { urlBackend } from './_backends'
import { readRows } from './_import-files'
import { aMovie } from './_movies'
import { describeWith } from './_services'
import type { StoreBackend } from './_store-suite'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()
const work = tempFolder('movie-log-export-')
const IMDB_FIXTURE = fileURLToPath(new URL('./fixtures/imdb-ratings.csv', import.meta.url))

// What CSV and spreadsheets trip on: separators, quotes, line breaks, formula starts, scripts.
const TRICKY = [
  aMovie({ title: 'Heat, "the long one"', notes: 'line one\r\nline two\n\ttabbed' }),
  aMovie({ title: '=HYPERLINK("http://evil")', notes: '+SUM(A1)' }),
  aMovie({ title: "'=already quoted", notes: '-' }),
  aMovie({ title: '@mention', notes: "''" }),
  aMovie({ title: '千と千尋の神隠し 🎬', notes: 'Amélie — naïve café', releaseYear: 2001 }),
  aMovie({ title: 'Plain', notes: '' }),
  // Ratings and tags (issue 57): tags joined by `, ` in one cell, guarded where a cell starts.
  aMovie({ title: 'Rated', rating: 7, tags: ['-festival', 'Cinéma club', '=owned'] }),
  aMovie({ title: 'Rated alone', rating: 10 }),
  aMovie({ title: 'Tagged alone', tags: ['a "quoted" tag'] }),
]

function describeRoundTrips(backend: StoreBackend): void {
  describe(`export then import: ${backend.name}`, () => {
    const made: ClosableMovieLog[] = []
    afterAll(async () => {
      await Promise.allSettled(made.splice(0).map((log) => log.close()))
      await backend.closeAll()
    })
    const openLog = async (): Promise<MovieLog> => {
      const namespace = `round-trip-${randomUUID()}`
      const log = createMovieLog(await backend.open(namespace), { namespace })
      made.push(log)
      return log
    }

    it.each(['ndjson', 'csv'] as const)('gives back the same log through %s', async (format) => {
      const source = await openLog()
      const movies: Movie[] = []
      for (const movie of TRICKY) movies.push(await source.addMovie(movie))
      // JSON escapes a lone surrogate; UTF-8 CSV cannot carry one.
      if (format === 'ndjson') movies.push(await source.addMovie(aMovie({ notes: 'x\ud800y' })))
      const file = join(work, `${randomUUID()}.${format}`)
      expect(await writeExport(source, format, createWriteStream(file))).toBe(movies.length)

      const target = await openLog()
      const { rows } = await readRows(file, 'auto')
      const report = await importMovies(target, rows)
      expect(report).toEqual({ added: movies.length, skipped: 0, refused: [] })
      expect((await target.listMovies()).movies).toEqual(movies)
      const again = await importMovies(target, (await readRows(file, format)).rows)
      expect(again).toEqual({ added: 0, skipped: movies.length, refused: [] })
    })
  })
}

describeRoundTrips(urlBackend('memory', 'memory://', () => new Map()))
describeRoundTrips(
  urlBackend('SQLite', `sqlite://${join(work, 'round-trip.sqlite')}`, () => new Map()),
)
describeWith('REDIS_URL', 'export then import on Redis', () => {
  describeRoundTrips(urlBackend('Redis', process.env.REDIS_URL as string, () => new Map()))
})
describeWith('POSTGRES_URL', 'export then import on PostgreSQL', () => {
  describeRoundTrips(urlBackend('PostgreSQL', process.env.POSTGRES_URL as string, () => new Map()))
})

describe("IMDb's ratings export", () => {
  it('imports titles with commas, quotes and UTF-8, refusing rows without URL or year by line', async () => {
    const log = createMovieLog()
    const report = await importMovies(log, (await readRows(IMDB_FIXTURE, 'auto')).rows)
    expect(report.added).toBe(4)
    expect(report.refused).toEqual([
      { line: 5, status: 'refused', issues: [{ path: 'URL', message: expect.any(String) }] },
      { line: 7, status: 'refused', issues: [{ path: 'Year', message: expect.any(String) }] },
    ])
    const { movies } = await log.listMovies({ sort: 'screenedDate' })
    expect(movies.map(({ id: _id, ...movie }) => movie)).toEqual([
      {
        title: 'Lawrence of Arabia, "Roadshow"',
        screenedDate: '2021-08-30T00:00:00.000',
        releaseYear: 1962,
        imdbLink: 'https://www.imdb.com/title/tt0056172/',
        notes: '',
        rating: 9,
      },
      expect.objectContaining({ title: '千と千尋の神隠し', releaseYear: 2001, rating: 10 }),
      expect.objectContaining({
        title: 'Le fabuleux destin d\'Amélie Poulain, dit "Amélie"',
        screenedDate: '2023-02-14T00:00:00.000',
      }),
      expect.objectContaining({
        title: 'Heat',
        imdbLink: 'https://www.imdb.com/title/tt0113277/',
        rating: 9,
      }),
    ])
    const again = await importMovies(log, (await readRows(IMDB_FIXTURE, 'imdb')).rows)
    expect([again.added, again.skipped, again.refused.length]).toEqual([0, 4, 2])
  })

  it('is refused as the log CSV, naming the columns it does not know', async () => {
    const { rows } = await readRows(IMDB_FIXTURE, 'csv')
    await expect(importMovies(createMovieLog(), rows)).rejects.toThrow(/'Const'/)
  })
})
