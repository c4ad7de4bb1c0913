import {
  InvalidPageRequestError,
  type Movie,
  type MovieLog,
  MovieValidationError,
  versionOf,
} from 'movie-log'
import { describe, expect, it } from 'vitest'
import { aMovie, MOVIE_FIELDS } from './_movies'
import { rejection } from './_store-helpers'
import type { StoreSuiteContext } from './_store-suite'
import { walkPages } from './_store-suite-search'

// Tags as a person writes them: case, accents and spaces vary; `Horror` is a word of
// `Horror comedy`, which a filter for `horror` must not take for it.
const TAG_SETS = [
  ['Horror', 'festival'],
  ['horror comedy'],
  ['Festival', 'HORROR', 'Cinéma club'],
  ['cinema  CLUB'],
  [],
  ['owned', 'festival'],
] as const

/** How a tag is compared: case, accents and runs of spaces ignored (another way than the log's). */
const folded = (tag: string) =>
  tag.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim().replace(/ +/g, ' ')

const hasTags = (movie: Movie, tags: readonly string[]) =>
  tags.every((tag) => (movie.tags ?? []).some((held) => folded(held) === folded(tag)))

/** `byRating` and `tags` of `stats`, worked out from the movies themselves. */
export function expectedTagStats(movies: readonly Movie[]) {
  const byRating = new Array(10).fill(0)
  const spellings = new Map<string, Map<string, number>>()
  for (const movie of movies) {
    if (movie.rating !== undefined) byRating[movie.rating - 1]++
    for (const tag of movie.tags ?? []) {
      const each = spellings.get(folded(tag)) ?? new Map<string, number>()
      each.set(tag, (each.get(tag) ?? 0) + 1)
      spellings.set(folded(tag), each)
    }
  }
  const tags = [...spellings.values()].map((each) => {
    const [best] = [...each].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
    return { tag: (best as [string, number])[0], count: [...each.values()].reduce((a, b) => a + b) }
  })
  tags.sort((a, b) => b.count - a.count || (a.tag < b.tag ? -1 : 1))
  return { byRating, tags: tags.slice(0, 100) }
}

async function addTagged(log: MovieLog, count: number): Promise<Movie[]> {
  const added: Movie[] = []
  for (let n = 0; n < count; n++) {
    const day = String(((n * 7) % 28) + 1).padStart(2, '0')
    const tags = TAG_SETS[n % TAG_SETS.length] as readonly string[]
    const movie = aMovie({
      title: n % 4 === 0 ? `Heat ${n}` : `Other ${n}`,
      screenedDate: `2024-0${(n % 3) + 1}-${day}T20:00:00.000`,
      ...(n % 5 === 4 ? {} : { rating: (n % 10) + 1 }),
      ...(tags.length > 0 ? { tags: [...tags] } : {}),
    })
    added.push(await log.addMovie(movie))
  }
  return added
}

/** Ratings and tags (CONTRACT.md "Ratings and tags", "The fields"), the same on every store. */
export function describeTagSuite({ openLog }: StoreSuiteContext): void {
  describe('ratings and tags', () => {
    it('keeps a rating and tags (trimmed, repeats removed, order kept); a movie without has neither key', async () => {
      const log = await openLog()
      const plain = await log.addMovie(aMovie({ title: 'Plain' }))
      expect(Object.keys(plain)).toEqual(MOVIE_FIELDS)
      const rated = await log.addMovie(
        aMovie({ rating: 7, tags: [' Horror ', 'festival', 'HORROR', 'Festivál', 'owned'] }),
      )
      expect(rated.rating).toBe(7)
      expect(rated.tags).toEqual(['Horror', 'festival', 'owned'])
      expect(await log.getMovie(rated.id)).toEqual(rated)
      expect(await log.getMovie(plain.id)).toEqual(plain)
      expect(Object.keys((await log.getMovie(plain.id)) as Movie)).toHaveLength(6)
      expect((await log.addMovie(aMovie({ tags: [] }))).tags).toBeUndefined()
      expect((await log.listMovies()).movies).toEqual([plain, rated, expect.anything()])
    })

    it('sets them by an edit, removes them by null or an empty list', async () => {
      const log = await openLog()
      const movie = await log.addMovie(aMovie())
      const rated = await log.updateMovie(movie.id, { rating: 9, tags: ['a', 'b'] })
      expect(rated).toMatchObject({ rating: 9, tags: ['a', 'b'] })
      expect(await log.getMovie(movie.id)).toEqual(rated)
      const cleared = await log.updateMovie(movie.id, { rating: null, tags: null })
      expect(cleared).toEqual(movie)
      expect(versionOf(cleared)).toBe(versionOf(movie))
      expect(Object.keys(cleared)).toHaveLength(6)
      await log.updateMovie(movie.id, { tags: ['c'] })
      expect(await log.updateMovie(movie.id, { tags: [] })).toEqual(movie)
      // null still refused for the fields every movie has.
      const error = await rejection(log.updateMovie(movie.id, { notes: null } as never))
      expect((error as MovieValidationError).issues.map((issue) => issue.path)).toEqual(['notes'])
    })

    it('refuses a bad rating or tags, naming each field, storing nothing', async () => {
      const log = await openLog()
      const bad: [unknown, unknown, string[]][] = [
        [0, 'x'.repeat(41), ['rating', 'tags']],
        [11, ['a,b'], ['rating', 'tags']],
        [7.5, [''], ['rating', 'tags']],
        ['7', 'horror', ['rating', 'tags']],
        [null, Array.from({ length: 21 }, (_, n) => `t${n}`), ['rating', 'tags']],
        [1, ['ok', 'x'.repeat(41)], ['tags']],
        [1, ['ok', 'bell\u0007'], ['tags']],
        [2, ['\u202eevil'], ['tags']],
        [3, [7], ['tags']],
      ]
      for (const [rating, tags, paths] of bad) {
        const error = await rejection(log.addMovie(aMovie({ rating, tags } as never)))
        expect(error, JSON.stringify([rating, tags])).toBeInstanceOf(MovieValidationError)
        const named = (error as MovieValidationError).issues.map((issue) => issue.path)
        expect(named.sort(), JSON.stringify([rating, tags])).toEqual(paths)
      }
      const movie = await log.addMovie(aMovie())
      const error = await rejection(log.updateMovie(movie.id, { rating: 0, tags: ['a,b'] }))
      expect((error as MovieValidationError).issues.map((issue) => issue.path).sort()).toEqual([
        'rating',
        'tags',
      ])
      expect((await log.listMovies()).movies).toEqual([movie])
    })

    it('lists by tags in every order and range, walked by cursor, as a filter of the listing', async () => {
      const log = await openLog()
      const added = await addTagged(log, 72)
      const filters: (readonly string[])[] = [
        ['horror'],
        ['HORROR', 'Festival'],
        ['cinema club'],
        ['Cinéma   Club', 'horror'],
        ['owned'],
        ['nothing'],
      ]
      for (const sort of ['added', 'screenedDate', '-screenedDate'] as const) {
        for (const range of [{}, { from: '2024-01-15', to: '2024-02' }]) {
          const listed = await walkPages(log, { sort, ...range }, 9)
          for (const tag of filters) {
            const found = await walkPages(log, { tag, sort, ...range }, 5)
            const label = `${tag} ${sort} ${JSON.stringify(range)}`
            expect(found, label).toEqual(listed.filter((movie) => hasTags(movie, tag)))
            // With q: the tag terms and the words together.
            const heat = await walkPages(log, { tag, q: 'hea', sort, ...range }, 4)
            expect(heat, label).toEqual(found.filter((movie) => movie.title.startsWith('Heat')))
          }
        }
      }
      expect((await log.listMovies({ tag: 'horror' })).movies.length).toBeGreaterThan(5)
      expect(added.length).toBe(72)
    })

    it('follows edits, and a cursor keeps its tags', async () => {
      const log = await openLog()
      const [first, second] = await addTagged(log, 6)
      await log.updateMovie(first!.id, { tags: ['Drama'] })
      await log.updateMovie(second!.id, { tags: ['horror'] })
      const horror = (await log.listMovies({ tag: 'horror' })).movies.map((m) => m.id)
      expect(horror).toContain(second!.id)
      expect(horror).not.toContain(first!.id)
      expect((await log.listMovies({ tag: 'drama' })).movies).toEqual([
        await log.getMovie(first!.id),
      ])
      const page = await log.listMovies({ tag: 'festival', limit: 1 })
      expect(page.nextCursor).not.toBeNull()
      const next = await log.listMovies({ tag: ['FESTIVAL'], limit: 1, cursor: page.nextCursor })
      expect(next.movies).toHaveLength(1)
      for (const other of [{ tag: 'horror' }, { tag: ['festival', 'owned'] }]) {
        const error = await rejection(log.listMovies({ ...other, cursor: page.nextCursor }))
        expect(error).toBeInstanceOf(InvalidPageRequestError)
        expect((error as InvalidPageRequestError).issues[0]?.path).toBe('cursor')
      }
      // An empty list names no tag: as over HTTP, where it is no parameter.
      expect((await log.listMovies({ tag: [] })).movies).toHaveLength(6)
      for (const tag of ['', 'a,b', [' '], 'x'.repeat(41)]) {
        const error = await rejection(log.listMovies({ tag: tag as string }))
        expect((error as InvalidPageRequestError).issues[0]?.path, String(tag)).toBe('tag')
      }
    })

    it('counts ratings and tags in the statistics', async () => {
      const log = await openLog()
      const added = await addTagged(log, 30)
      const stats = await log.stats()
      expect({ byRating: stats.byRating, tags: stats.tags }).toEqual(expectedTagStats(added))
      expect(stats.byRating).toHaveLength(10)
      expect(stats.tags[0]?.tag).toBe('festival')
      await log.updateMovie(added[0]!.id, { rating: null, tags: null })
      const now = await log.listMovies()
      expect(await log.stats({ from: '2024-02', to: '2024-03' })).toMatchObject(
        expectedTagStats(now.movies.filter((m) => m.screenedDate >= '2024-02')),
      )
    })
  })
}
