import type { Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { expectProblem, nextLink, servingWith } from './_http-helpers'
import { HTTP_TARGETS, type HttpTargetFactory } from './_http-targets'
import { aMovie } from './_movies'

// Ratings and tags over HTTP (issue 57), every answer checked against the document.
describe.each(HTTP_TARGETS)(
  'HTTP ratings and tags: %s',
  (_name, createTarget: HttpTargetFactory) => {
    const serve = servingWith(createTarget)

    it('lists by ?tag=a&tag=b, every Link keeping the tags; a bad tag is 400 naming tag', async () => {
      const { log, http } = await serve()
      const wanted: Movie[] = []
      for (let n = 0; n < 7; n++) {
        const tags = n % 2 ? ['Festival', 'horror'] : ['festival']
        const movie = await log.addMovie(aMovie({ title: `Movie ${n}`, tags, rating: n + 1 }))
        if (n % 2) wanted.push(movie)
      }
      const seen: Movie[] = []
      let next: string | undefined = '/movies?tag=FESTIVAL&tag=Horror&sort=-screenedDate&limit=1'
      while (next) {
        const response = await http.fetch(next)
        expect(response.status).toBe(200)
        seen.push(...((await response.json()) as Movie[]))
        next = nextLink(response, http.origin)
        if (next) {
          expect(new URL(next, http.origin).searchParams.getAll('tag')).toEqual([
            'FESTIVAL',
            'Horror',
          ])
        }
      }
      expect(seen.map((movie) => movie.id).sort()).toEqual(wanted.map((movie) => movie.id).sort())
      const problem = await expectProblem(await http.fetch('/movies?tag=a%2Cb'), 400)
      expect(problem.errors[0].parameter ?? problem.errors[0].pointer).toMatch(/tag/)
    })

    it('sets a rating and tags by PATCH and removes them with null', async () => {
      const { log, http } = await serve()
      const movie = await log.addMovie(aMovie())
      const patch = (body: unknown) =>
        http.fetch(`/movies/${movie.id}`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify(body),
        })
      const rated = await patch({ rating: 6, tags: [' owned '] })
      expect(rated.status).toBe(200)
      expect(await rated.json()).toEqual({ ...movie, rating: 6, tags: ['owned'] })
      const cleared = await patch({ rating: null, tags: null })
      expect(await cleared.text()).toBe(JSON.stringify(movie))
      const refused = await expectProblem(await patch({ rating: 11 }), 400)
      expect(refused.errors.map((error: { pointer: string }) => error.pointer)).toEqual(['/rating'])
    })
  },
)
