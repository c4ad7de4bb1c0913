import type { Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { addDated } from './_dated'
import { expectProblem, nextLink, servingWith } from './_http-helpers'
import { HTTP_TARGETS, type HttpTarget, type HttpTargetFactory } from './_http-targets'
import { expectedListing } from './_store-helpers'

/** Follows Link rel="next" from `path`; returns the movies and every URL followed. */
async function walk(http: HttpTarget, path: string) {
  const movies: Movie[] = []
  const urls: string[] = []
  let next: string | undefined = path
  while (next) {
    urls.push(next)
    const response = await http.fetch(next)
    expect(response.status).toBe(200)
    movies.push(...((await response.json()) as Movie[]))
    next = nextLink(response, http.origin)
  }
  return { movies, urls }
}

describe.each(HTTP_TARGETS)(
  'HTTP browsing by date: %s',
  (_name, createTarget: HttpTargetFactory) => {
    const serve = servingWith(createTarget)

    it('pages a sort and range, every Link keeping them', async () => {
      const { log, http } = await serve()
      const added = await addDated(log)
      const listing = { sort: '-screenedDate', from: '2024', to: '2024-06' } as const
      const { movies, urls } = await walk(
        http,
        '/movies?sort=-screenedDate&from=2024&to=2024-06&limit=2',
      )
      expect(movies).toEqual(expectedListing(added, listing))
      expect(urls.length).toBe(Math.ceil(movies.length / 2))
      for (const url of urls.slice(1)) {
        const query = new URL(url, http.origin).searchParams
        expect(query.get('sort')).toBe('-screenedDate')
        expect(query.get('from')).toBe('2024')
        expect(query.get('to')).toBe('2024-06')
        expect(query.get('limit')).toBe('2')
        expect(query.get('cursor')).toEqual(expect.any(String))
      }
    })

    it.each([
      ['sort=screenedDate', { sort: 'screenedDate' }],
      ['sort=added&to=2023', { sort: 'added', to: '2023' }],
      [
        'from=2024-02-29&to=2024-05-01T20%3A30%3A00.000',
        { from: '2024-02-29', to: '2024-05-01T20:30:00.000' },
      ],
    ] as const)('applies %s to the whole list and to pages', async (query, listing) => {
      const { log, http } = await serve()
      const expected = expectedListing(await addDated(log), listing)
      const whole = await http.fetch(`/movies?${query}`)
      expect(whole.status).toBe(200)
      expect(await whole.json()).toEqual(expected)
      expect((await walk(http, `/movies?${query}&limit=3`)).movies).toEqual(expected)
    })

    it('answers from after to with an empty list', async () => {
      const { log, http } = await serve()
      await addDated(log)
      const response = await http.fetch('/movies?from=2025&to=2024&limit=5')
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual([])
      expect(response.headers.get('link')).toBeNull()
    })

    it.each([
      ['sort', 'sort=date'],
      ['sort', 'sort=%2BscreenedDate'],
      ['sort', 'sort='],
      ['from', 'from=2024-13'],
      ['from', 'from=2023-02-29&limit=5'],
      ['from', 'from=2024-05-01T20%3A30%3A00.000Z'],
      ['to', 'to=24'],
      ['to', 'to=2024-05-01T20%3A30'],
      ['to', 'to='],
    ])('refuses a bad %s (%s) with 400 naming it', async (parameter, query) => {
      const { http } = await serve()
      const problem = await expectProblem(await http.fetch(`/movies?${query}`), 400)
      expect(problem.type).toBe('urn:movie-log:problem:invalid-page-request')
      expect(problem.errors).toEqual([{ parameter, detail: expect.any(String) }])
    })

    it('refuses a cursor used with another sort or range, naming cursor', async () => {
      const { log, http } = await serve()
      await addDated(log)
      const first = await http.fetch('/movies?sort=-screenedDate&from=2024&limit=2')
      const cursor = new URL(nextLink(first, http.origin) as string, http.origin).searchParams.get(
        'cursor',
      )
      for (const query of [
        'sort=screenedDate&from=2024',
        'sort=-screenedDate&from=2023',
        'sort=added&from=2024',
        'sort=-screenedDate&from=2024&to=2024',
      ]) {
        const response = await http.fetch(`/movies?${query}&limit=2&cursor=${cursor}`)
        const problem = await expectProblem(response, 400)
        expect(problem.errors).toEqual([{ parameter: 'cursor', detail: expect.any(String) }])
      }
    })
  },
)
