import { createMovieLog } from 'movie-log'
import { describe, expect, it } from 'vitest'
import type { Catalog, CatalogEntry } from '../src/core/catalog'
import type { HistoryRow, Screening } from '../src/formats/history'
import { importHistory } from '../src/formats/import-history'
import { foldTitle } from '../src/formats/match-screening'

// Matching a history through the catalog port: one entry of that title and year is taken, none
// or several are never guessed. The catalog here answers from a list, as the port promises.
const entry = (id: string, title: string, year: number, originalTitle = title): CatalogEntry => ({
  imdbLink: `https://www.imdb.com/title/${id}/`,
  title,
  originalTitle,
  year,
  runtimeMinutes: undefined,
})
const ENTRIES = [
  entry('tt0113277', 'Heat', 1995),
  entry('tt0090035', 'Heat', 1986),
  entry('tt0211915', 'Amélie', 2001, 'Le fabuleux destin d’Amélie Poulain'),
  entry('tt0089881', 'Ran', 1985),
]
const catalog: Catalog = {
  async find({ title, year }, limit = 10) {
    const words = foldTitle(title)
    return ENTRIES.filter(
      (it) =>
        (year === undefined || it.year === year) &&
        [it.title, it.originalTitle].some((name) => foldTitle(name).startsWith(words)),
    ).slice(0, limit)
  },
}

const screening = (line: number, fields: Partial<Screening>): HistoryRow => ({
  line,
  screening: {
    source: `test:${line}`,
    title: 'Heat',
    releaseYear: undefined,
    imdbLink: undefined,
    screenedDate: '2024-05-01T00:00:00.000',
    notes: '',
    ...fields,
  },
})

describe('importHistory through a catalog', () => {
  const rows = [
    screening(2, { title: 'HEAT', releaseYear: 1995, rating: 9, tags: ['cinema', '35mm'] }),
    screening(3, { title: 'Heat' }),
    screening(4, { title: 'amelie', releaseYear: 2001 }),
    screening(5, { title: 'Unknown Film', releaseYear: 2001 }),
    { line: 6, passedOver: 'episode' as const },
  ]

  it('takes the one entry of the title and year; none or several go unmatched with the candidates', async () => {
    const log = createMovieLog()
    const report = await importHistory(log, rows, catalog, () => {})
    expect(report).toMatchObject({ added: 2, skipped: 0, matched: 2, episodes: 1, trailers: 0 })
    // Heat without a year names two entries: both offered, neither taken.
    expect(
      report.unmatched.map(({ movie, candidates }) => [movie.title, candidates.map((c) => c.year)]),
    ).toEqual([
      ['Heat', [1995, 1986]],
      ['Unknown Film', []],
    ])
    const { movies } = await log.listMovies()
    const byTitle = Object.fromEntries(movies.map((movie) => [movie.title, movie]))
    expect(byTitle.HEAT).toMatchObject({
      imdbLink: 'https://www.imdb.com/title/tt0113277/',
      rating: 9,
      tags: ['cinema', '35mm'],
    })
    expect(byTitle.amelie).toMatchObject({
      imdbLink: 'https://www.imdb.com/title/tt0211915/',
      releaseYear: 2001,
    })
    const again = await importHistory(log, rows, catalog, () => {})
    expect(again).toMatchObject({ added: 0, skipped: 2, matched: 2 })
  })

  it('without a catalog: a row with its own IMDb link is imported, the rest unmatched', async () => {
    const log = createMovieLog()
    const linked = screening(7, {
      title: 'Ran',
      releaseYear: 1985,
      imdbLink: 'https://www.imdb.com/title/tt0089881/',
    })
    const report = await importHistory(log, [...rows, linked], undefined, () => {})
    expect(report).toMatchObject({ added: 1, matched: 0 })
    expect(report.unmatched).toHaveLength(4)
  })
})
