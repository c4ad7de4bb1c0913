import { randomUUID } from 'node:crypto'
import { InvalidPageRequestError, type ListMoviesOptions, type Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { addDated, BAD_BOUNDS, BAD_SORTS, RANGES } from './_dated'
import {
  expectedListing,
  type Listing,
  rejection,
  SORTS,
  trapWalks,
  walkPages,
} from './_store-helpers'
import type { StoreSuiteContext } from './_store-suite'

const ids = (movies: Movie[]) => movies.map((movie) => movie.id)

/** Browsing by date (CONTRACT.md "Browsing by date"). */
export function describeDateSuite({ openLog, backend, connect }: StoreSuiteContext): void {
  describe('sorts and ranges', () => {
    it('sorts by screenedDate both ways, ties in id order in the sort’s direction', async () => {
      const log = await openLog()
      const added = await addDated(log)
      expect((await log.listMovies({ sort: 'added' })).movies).toEqual(added)
      const ascending = (await log.listMovies({ sort: 'screenedDate' })).movies
      expect(ascending).toEqual(expectedListing(added, { sort: 'screenedDate' }))
      const descending = (await log.listMovies({ sort: '-screenedDate' })).movies
      expect(descending).toEqual([...ascending].reverse())
      // The three ties were added first, fifth and tenth: in id order up, reversed down.
      const tied = (movies: Movie[]) =>
        movies.filter((m) => m.screenedDate === '2024-05-01T20:30:00.000').map((m) => m.title)
      expect(tied(ascending)).toEqual(['Dated 0', 'Dated 4', 'Dated 9'])
      expect(tied(descending)).toEqual(['Dated 9', 'Dated 4', 'Dated 0'])
      expect(ascending[0]?.title).toBe('Dated 6')
      expect(descending[0]?.title).toBe('Dated 3')
    })

    it('takes from and to at each granularity, inclusive of the whole period', async () => {
      const log = await openLog()
      const added = await addDated(log)
      for (const [range, count] of RANGES) {
        for (const sort of SORTS) {
          const listing = { ...range, sort }
          const { movies, nextCursor } = await log.listMovies(listing)
          expect(movies, JSON.stringify(listing)).toEqual(expectedListing(added, listing))
          expect(movies, JSON.stringify(listing)).toHaveLength(count)
          expect(nextCursor).toBeNull()
        }
      }
    })

    it('gives an empty list when from is after to', async () => {
      const log = await openLog()
      await addDated(log)
      for (const range of [
        { from: '2025', to: '2024' },
        { from: '2024-05-02', to: '2024-05-01' },
        { from: '2024-05-01T20:30:00.001', to: '2024-05-01T20:30:00.000' },
        { from: '2024-03', to: '2024-02-29' },
      ]) {
        for (const sort of SORTS) {
          for (const limit of [undefined, 2]) {
            const page = await log.listMovies({ ...range, sort, limit })
            expect(page, JSON.stringify(range)).toEqual({ movies: [], nextCursor: null })
          }
        }
      }
    })

    it('refuses a bad sort, from or to, naming it', async () => {
      const log = await openLog()
      await addDated(log)
      const refuse = async (options: ListMoviesOptions, path: string) => {
        const error = await rejection(log.listMovies(options))
        expect(error, JSON.stringify(options)).toBeInstanceOf(InvalidPageRequestError)
        const paths = (error as InvalidPageRequestError).issues.map((issue) => issue.path)
        expect(paths, JSON.stringify(options)).toEqual([path])
      }
      for (const sort of BAD_SORTS) await refuse({ sort } as unknown as ListMoviesOptions, 'sort')
      for (const bound of BAD_BOUNDS) {
        await refuse({ from: bound }, 'from')
        await refuse({ to: bound, limit: 5 }, 'to')
      }
    })

    it('pages through every sort and range with cursors that carry them', async () => {
      const log = await openLog()
      const added = await addDated(log)
      for (const [range] of RANGES.slice(0, 6)) {
        for (const sort of SORTS) {
          const listing = { ...range, sort }
          const expected = ids(expectedListing(added, listing))
          for (const limit of [1, 2, 4]) {
            expect(
              await walkPages(log, limit, undefined, listing),
              JSON.stringify(listing),
            ).toEqual(expected)
          }
        }
      }
    })

    it('refuses a cursor with another sort or range, naming cursor', async () => {
      const log = await openLog()
      await addDated(log)
      const pairs: [ListMoviesOptions, ListMoviesOptions][] = [
        [{ sort: '-screenedDate' }, { sort: 'screenedDate' }],
        [{ sort: '-screenedDate' }, { sort: 'added' }],
        [{ sort: '-screenedDate' }, { sort: '-screenedDate', from: '2024' }],
        [{}, { sort: 'screenedDate' }],
        [
          { sort: 'screenedDate', from: '2024' },
          { sort: 'screenedDate', from: '2023' },
        ],
        [{ to: '2024-06' }, { to: '2024-07' }],
        [{ from: '2024' }, { from: '2024', to: '2024' }],
      ]
      for (const [made, used] of pairs) {
        const { nextCursor } = await log.listMovies({ ...made, limit: 1 })
        expect(nextCursor).toEqual(expect.any(String))
        const error = await rejection(log.listMovies({ ...used, limit: 1, cursor: nextCursor }))
        expect(error, JSON.stringify([made, used])).toBeInstanceOf(InvalidPageRequestError)
        expect((error as InvalidPageRequestError).issues.map((i) => i.path)).toEqual(['cursor'])
      }
    })

    it('keeps the date order in step with edits and deletes', async () => {
      const log = await openLog()
      const movies = new Map((await addDated(log)).map((movie) => [movie.id, movie]))
      const check = async (what: string) => {
        for (const sort of SORTS) {
          for (const [range] of RANGES.slice(0, 5)) {
            const listing = { ...range, sort }
            const expected = expectedListing(movies.values(), listing)
            const label = `${what} ${JSON.stringify(listing)}`
            expect((await log.listMovies(listing)).movies, label).toEqual(expected)
            expect(await walkPages(log, 3, undefined, listing), label).toEqual(ids(expected))
          }
        }
      }
      const [first, second, third] = [...movies.values()]
      // Out of 2024 into 2023, then to a tie; then one deleted.
      for (const [movie, screenedDate] of [
        [first, '2023-06-15T12:00:00.000'],
        [second, '2024-05-01T20:30:00.000'],
      ] as const) {
        const edited = await log.updateMovie(movie!.id, { screenedDate })
        movies.set(edited.id, edited)
        await check(`after moving ${movie!.title}`)
      }
      expect(await log.deleteMovie(third!.id)).toBe(true)
      movies.delete(third!.id)
      await check('after a delete')
    })

    it.skipIf(backend.scans)(
      'lists a date-sorted page in a range without iterating the whole store',
      async () => {
        const namespace = `test-${randomUUID()}`
        const store = await backend.open(namespace)
        const log = await connect(store, { namespace })
        const added = await addDated(log)
        const listing: Listing = { sort: '-screenedDate', from: '2024', to: '2024-06' }
        await log.listMovies({ ...listing, limit: 1 })
        const restore = trapWalks(store)
        try {
          const expected = ids(expectedListing(added, listing))
          expect(await walkPages(log, 2, undefined, listing)).toEqual(expected)
          const up = { ...listing, sort: 'screenedDate' as const }
          expect(await walkPages(log, 3, undefined, up)).toEqual([...expected].reverse())
        } finally {
          restore()
        }
      },
    )
  })
}
