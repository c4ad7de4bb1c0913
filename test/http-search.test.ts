import type { Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { expectProblem, nextLink, servingWith } from './_http-helpers'
import { HTTP_TARGETS, type HttpTargetFactory } from './_http-targets'
import { addCorpus, expectedStats } from './_store-suite-search'

// Search and statistics over HTTP (issue 39), every answer checked against the document.
describe.each(HTTP_TARGETS)(
  'HTTP search and statistics: %s',
  (_name, createTarget: HttpTargetFactory) => {
    const serve = servingWith(createTarget)

    it('searches with ?q=, every Link keeping q, sort and range', async () => {
      const { log, http } = await serve()
      await addCorpus(log)
      const titles: string[] = []
      let next: string | undefined =
        `/movies?q=${encodeURIComponent('HÉAT')}&sort=-screenedDate&limit=1`
      while (next) {
        const response = await http.fetch(next)
        expect(response.status).toBe(200)
        titles.push(...((await response.json()) as Movie[]).map((movie) => movie.title))
        next = nextLink(response, http.origin)
        if (next) expect(new URL(next, http.origin).searchParams.get('q')).toBe('HÉAT')
      }
      expect(titles).toEqual(['Heat', 'HEAT', 'Heatwave', 'Heat'])
      const whole = await http.fetch(`/movies?q=${encodeURIComponent('cinéma para')}`)
      expect(((await whole.json()) as Movie[]).map((movie) => movie.title)).toEqual([
        'Cinéma Paradiso',
      ])
      const problem = await expectProblem(await http.fetch(`/movies?q=${'x'.repeat(1001)}`), 400)
      expect(problem.errors[0].parameter ?? problem.errors[0].pointer).toMatch(/q/)
    })

    it('answers GET /movies/stats with the counts, from and to by month', async () => {
      const { log, http } = await serve()
      const added = await addCorpus(log)
      const response = await http.fetch('/movies/stats')
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('private, no-cache')
      expect(await response.json()).toEqual(expectedStats(added))
      const year = await http.fetch('/movies/stats?from=2024&to=2024')
      expect(await year.json()).toEqual(expectedStats(added, '2024-01', '2024-12'))
      expect((await http.fetch('/movies/stats', { method: 'HEAD' })).status).toBe(200)
      const refused = await expectProblem(await http.fetch('/movies/stats?from=2024-13'), 400)
      expect(JSON.stringify(refused.errors)).toMatch(/from/)
      // Issue 55 item 10: the detail said "The paging parameters are not valid".
      const both = await expectProblem(await http.fetch('/movies/stats?from=x&to=y'), 400)
      expect(both.detail).toBe('The from and to parameters are not valid; see errors.')
      const method = await http.fetch('/movies/stats', { method: 'DELETE' })
      expect(method.status).toBe(405)
      expect(method.headers.get('allow')).toBe('GET, HEAD')
    })

    it('guards the statistics as the list is', async () => {
      const asked: string[] = []
      const { http } = await serve(undefined, {
        authorize: (_request, action) => {
          asked.push(action)
          return false
        },
      })
      await expectProblem(await http.fetch('/movies/stats'), 401)
      expect(asked).toEqual(['list'])
    })
  },
)
