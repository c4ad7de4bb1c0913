import { InvalidPageRequestError, type Movie, type MovieLog, type MovieStats } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { rejection } from './_store-helpers'
import type { StoreSuiteContext } from './_store-suite'
import { expectedTagStats } from './_store-suite-tags'

/** Titles and notes with accents, case and scripts other than Latin (issue 39). */
export const SEARCH_CORPUS = [
  {
    title: 'Cinéma Paradiso',
    notes: 'Tornatore, at the Ciné Lumière',
    screenedDate: '2023-12-31T23:10:00.000',
    releaseYear: 1988,
    link: 'tt0095765',
  },
  {
    title: 'Amélie',
    notes: 'Montmartre again',
    screenedDate: '2024-01-06T14:00:00.000',
    releaseYear: 2001,
    link: 'tt0211915',
  },
  {
    title: '千と千尋の神隠し',
    notes: 'Spirited Away, 字幕',
    screenedDate: '2024-02-29T09:05:00.000',
    releaseYear: 2001,
    link: 'tt0245429',
  },
  {
    title: 'Фильм',
    notes: 'русский',
    screenedDate: '2024-03-03T21:00:00.000',
    releaseYear: 1965,
    link: 'tt0059445',
  },
  {
    title: 'Heat',
    notes: 'Seen at the Prince Charles.',
    screenedDate: '2024-05-01T20:30:00.000',
    releaseYear: 1995,
    link: 'tt0113277',
  },
  {
    title: 'Heatwave',
    notes: '',
    screenedDate: '2024-07-14T16:45:00.000',
    releaseYear: 1982,
    link: 'tt0083956',
  },
  {
    title: 'Theater',
    notes: 'a play, filmed',
    screenedDate: '2024-07-20T10:00:00.000',
    releaseYear: 2010,
    link: 'tt1000001',
  },
  {
    title: 'HEAT',
    notes: 'Rewatch: the 4K.',
    screenedDate: '2025-01-02T00:15:00.000',
    releaseYear: 1995,
    link: 'tt0113277',
  },
  {
    title: 'Heat',
    notes: 'third time',
    screenedDate: '2025-03-08T22:00:00.000',
    releaseYear: 1995,
    link: 'tt0113277',
  },
] as const

/** Adds the corpus, one movie at a time (so ids follow its order). */
export async function addCorpus(log: MovieLog): Promise<Movie[]> {
  const added: Movie[] = []
  for (const { link, ...fields } of SEARCH_CORPUS) {
    added.push(
      await log.addMovie(aMovie({ ...fields, imdbLink: `https://www.imdb.com/title/${link}/` })),
    )
  }
  return added
}

/**
 * A page of two `heat` matches screened from June 2024 in a listing's order (`heats`), and the
 * same worked out from movies already in that order (`filtered`): an older store's words checked.
 */
export function heatPages(log: MovieLog) {
  return {
    heats: (sort: 'added' | 'screenedDate' | '-screenedDate') =>
      log.listMovies({ q: 'heat', sort, from: '2024-06', limit: 2 }),
    filtered: (movies: Movie[]) =>
      movies.filter((m) => /^heat/i.test(m.title) && m.screenedDate >= '2024-06').slice(0, 2),
  }
}

/** The statistics worked out from the movies themselves, another way than the log does. */
export function expectedStats(movies: Movie[], from = '0000-01', to = '9999-12'): MovieStats {
  const within = movies.filter(
    (m) => m.screenedDate.slice(0, 7) >= from && m.screenedDate.slice(0, 7) <= to,
  )
  const count = (key: (m: Movie) => string) => {
    const counts: Record<string, number> = {}
    for (const m of [...within].sort((a, b) => (key(a) < key(b) ? -1 : 1)))
      counts[key(m)] = (counts[key(m)] ?? 0) + 1
    return counts
  }
  const byWeekday = new Array(7).fill(0)
  const byHour = new Array(24).fill(0)
  for (const m of within) {
    byWeekday[(new Date(`${m.screenedDate.slice(0, 10)}T00:00:00Z`).getUTCDay() + 6) % 7]++
    byHour[Number(m.screenedDate.slice(11, 13))]++
  }
  const links = new Map<string, Movie[]>()
  for (const m of within) links.set(m.imdbLink, [...(links.get(m.imdbLink) ?? []), m])
  const rewatched = [...links]
    .filter(([, seen]) => seen.length > 1)
    .map(([imdbLink, seen]) => {
      const named = seen.map((m) => m.title)
      const times = (title: string) => named.filter((each) => each === title).length
      // The title it was logged under most often; ties: the first in code-point order.
      const best = [...new Set(named)].sort().sort((a, b) => times(b) - times(a))[0]
      return { imdbLink, title: best as string, count: seen.length }
    })
  return {
    total: within.length,
    byYear: count((m) => m.screenedDate.slice(0, 4)),
    byMonth: count((m) => m.screenedDate.slice(0, 7)),
    byWeekday,
    byHour,
    byReleaseDecade: count((m) => String(Math.floor(m.releaseYear / 10) * 10)),
    rewatched,
    ...expectedTagStats(within),
  }
}

type ListOptions = Parameters<MovieLog['listMovies']>[0]

/** Every page of a listing, `limit` at a time, through its cursors. */
export async function walkPages(log: MovieLog, options: ListOptions, limit: number) {
  const movies: Movie[] = []
  let page = await log.listMovies({ ...options, limit })
  movies.push(...page.movies)
  while (page.nextCursor) {
    page = await log.listMovies({ limit, cursor: page.nextCursor })
    movies.push(...page.movies)
  }
  return movies
}

const titles = (movies: Movie[]) => movies.map((movie) => movie.title)

/** Search and statistics (CONTRACT.md "Search and statistics"), the same on every store. */
export function describeSearchSuite({ openLog }: StoreSuiteContext): void {
  describe('search', () => {
    it('finds every word as a word, the last as a prefix, case and accents ignored', async () => {
      const log = await openLog()
      const added = await addCorpus(log)
      const found = async (q: string) => titles((await log.listMovies({ q })).movies)
      expect(await found('cinema para')).toEqual(['Cinéma Paradiso'])
      expect(await found('CINÉMA')).toEqual(['Cinéma Paradiso'])
      expect(await found('lumiere')).toEqual(['Cinéma Paradiso'])
      expect(await found('amelie')).toEqual(['Amélie'])
      expect(await found('千と')).toEqual(['千と千尋の神隠し'])
      expect(await found('字幕')).toEqual(['千と千尋の神隠し'])
      expect(await found('ФИЛЬ')).toEqual(['Фильм'])
      expect(await found('heat')).toEqual(['Heat', 'Heatwave', 'HEAT', 'Heat'])
      expect(await found('thea')).toEqual(['Theater'])
      expect(await found('heat prince')).toEqual(['Heat'])
      expect(await found('heat the')).toEqual(['Heat', 'HEAT'])
      // Only the last word is a prefix: "para" is no word of any movie.
      expect(await found('para cinema')).toEqual([])
      expect(await found('heatw wave')).toEqual([])
      expect(await found('4k rewatch')).toEqual(['HEAT'])
      expect(await found('nothing-like-it')).toEqual([])
      // No word asked (empty, or punctuation alone): every movie.
      expect((await log.listMovies({ q: '' })).movies).toEqual(added)
      expect((await log.listMovies({ q: ' ,.; ' })).movies).toEqual(added)
    })

    it('combines with sort, from, to, limit and cursor', async () => {
      const log = await openLog()
      await addCorpus(log)
      const latest = await log.listMovies({
        q: 'heat',
        sort: '-screenedDate',
        from: '2024',
        to: '2025-01',
      })
      expect(latest.movies.map((m) => m.screenedDate)).toEqual([
        '2025-01-02T00:15:00.000',
        '2024-07-14T16:45:00.000',
        '2024-05-01T20:30:00.000',
      ])
      for (const sort of ['added', 'screenedDate', '-screenedDate'] as const) {
        const whole = (await log.listMovies({ q: 'heat', sort })).movies
        const walked: Movie[] = []
        let page = await log.listMovies({ q: 'heat', sort, limit: 2 })
        walked.push(...page.movies)
        while (page.nextCursor) {
          page = await log.listMovies({ limit: 2, cursor: page.nextCursor })
          walked.push(...page.movies)
        }
        expect(walked, sort).toEqual(whole)
      }
      const first = await log.listMovies({ q: 'heat', limit: 1 })
      const error = await rejection(
        log.listMovies({ q: 'amelie', limit: 1, cursor: first.nextCursor }),
      )
      expect(error).toBeInstanceOf(InvalidPageRequestError)
      expect((error as InvalidPageRequestError).issues[0]?.path).toBe('cursor')
    })

    it('pages through many matches among other movies in every order, as a filter of the listing', async () => {
      const log = await openLog()
      // Matches far more than a page, interleaved with movies that do not match, screened out
      // of the order added (with ties), and a movie holding two words of the prefix.
      for (let n = 0; n < 90; n++) {
        const day = String(((n * 7) % 28) + 1).padStart(2, '0')
        const title = n % 3 === 0 ? `Other ${n}` : `Heat ${n}`
        // A word of its own each: the prefix `z` starts 90 words, `z1` eleven.
        const notes = `${n % 5 === 0 ? 'heated heatwave' : `part${n % 4}`} z${n}`
        await log.addMovie(
          aMovie({ title, notes, screenedDate: `2024-0${(n % 3) + 1}-${day}T20:00:00.000` }),
        )
      }
      const all = (options: ListOptions) => walkPages(log, options, 7)
      const check = async () => {
        for (const sort of ['added', 'screenedDate', '-screenedDate'] as const) {
          for (const range of [{}, { from: '2024-01-15', to: '2024-02' }]) {
            const listed = await all({ sort, ...range })
            for (const [q, holds] of [
              ['heat', (m: Movie) => /heat/i.test(`${m.title} ${m.notes}`)],
              [
                'heat part1',
                (m: Movie) => m.title.startsWith('Heat') && m.notes.startsWith('part1 '),
              ],
              [
                'part2 hea',
                (m: Movie) => m.notes.startsWith('part2') && m.title.startsWith('Heat'),
              ],
              ['z', (m: Movie) => / z\d+$/.test(m.notes)],
              ['z1', (m: Movie) => / z1\d?$/.test(m.notes)],
            ] as const) {
              const found = await all({ q, sort, ...range })
              // More than a page for the one word, a few for the others.
              expect(found.length, `${q} ${sort}`).toBeGreaterThan(q === 'heat' ? 7 : 1)
              expect(found, `${q} ${sort}`).toEqual(listed.filter(holds))
            }
          }
        }
      }
      await check()
      // An edit that moves a match to another date, and one that takes its words away.
      const [first, second] = (await log.listMovies({ q: 'heat', limit: 2 })).movies
      await log.updateMovie(first!.id, { screenedDate: '2024-03-28T23:00:00.000' })
      await log.updateMovie(second!.id, { title: 'Cool', notes: '' })
      await check()
    })

    it('follows edits and deletes at once', async () => {
      const log = await openLog()
      const [paradiso, amelie] = await addCorpus(log)
      await log.updateMovie(paradiso!.id, { title: 'Nuovo Cinema Paradiso' })
      expect(titles((await log.listMovies({ q: 'nuovo' })).movies)).toEqual([
        'Nuovo Cinema Paradiso',
      ])
      await log.updateMovie(paradiso!.id, { title: 'Paradiso', notes: '' })
      expect((await log.listMovies({ q: 'cinema' })).movies).toEqual([])
      await log.deleteMovie(amelie!.id)
      expect((await log.listMovies({ q: 'amelie' })).movies).toEqual([])
    })

    it('refuses a q that is not a short string, naming q', async () => {
      const log = await openLog()
      const error = await rejection(log.listMovies({ q: 'x'.repeat(1001) }))
      expect((error as InvalidPageRequestError).issues).toEqual([
        { path: 'q', message: expect.any(String) },
      ])
    })
  })

  describe('statistics', () => {
    it('counts by year, month, weekday, hour and decade, and the rewatched', async () => {
      const log = await openLog()
      const added = await addCorpus(log)
      const stats = await log.stats()
      expect(stats).toEqual(expectedStats(added))
      expect(stats.rewatched).toEqual([
        { imdbLink: 'https://www.imdb.com/title/tt0113277/', title: 'Heat', count: 3 },
      ])
      expect(stats.byWeekday).toHaveLength(7)
      expect(stats.byHour).toHaveLength(24)
      expect(JSON.stringify(await log.stats({ from: '2024', to: '2024-07' }))).toBe(
        JSON.stringify(expectedStats(added, '2024-01', '2024-07')),
      )
      expect((await log.stats({ from: '2025' })).rewatched).toEqual([
        { imdbLink: 'https://www.imdb.com/title/tt0113277/', title: 'HEAT', count: 2 },
      ])
      expect((await log.stats({ from: '2025', to: '2024' })).total).toBe(0)
    })

    it('stays with the movies after edits and deletes', async () => {
      const log = await openLog()
      const added = await addCorpus(log)
      const heat = added[4] as Movie
      const moved = await log.updateMovie(heat.id, {
        screenedDate: '2019-06-01T08:00:00.000',
        releaseYear: 1874,
      })
      await log.deleteMovie((added[8] as Movie).id)
      const now = added
        .map((m) => (m.id === moved.id ? moved : m))
        .filter((m) => m.id !== added[8]?.id)
      expect(await log.stats()).toEqual(expectedStats(now))
      // Whole years (rolled up), the months either side, and both.
      for (const [from, to] of [
        ['2019', '2024'],
        ['2023-12', '2025-01'],
        ['2019-06', '2024-05'],
        ['2024-02', '2024-12'],
      ] as const) {
        expect(await log.stats({ from, to })).toEqual(
          expectedStats(now, `${from}-01`.slice(0, 7), `${to}-12`.slice(0, 7)),
        )
      }
      for (const movie of now) await log.deleteMovie(movie.id)
      expect(await log.stats()).toEqual(expectedStats([]))
    })

    it('refuses from and to that are not a year or a month, naming each', async () => {
      const log = await openLog()
      const error = await rejection(log.stats({ from: '2024-05-01', to: 'soon' }))
      expect(error).toBeInstanceOf(InvalidPageRequestError)
      expect((error as InvalidPageRequestError).issues.map((issue) => issue.path)).toEqual([
        'from',
        'to',
      ])
    })
  })
}
