import { createMovieLog, versionOf } from 'movie-log'
import type { MovieLogAction } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { expectProblem, JSON_HEADERS, servingWith } from './_http-helpers'
import { HTTP_TARGETS, type HttpTargetFactory } from './_http-targets'
import { aMovie } from './_movies'

describe.each(HTTP_TARGETS)(
  'HTTP edits: methods, access, CORS: %s',
  (_name, createTarget: HttpTargetFactory) => {
    const serve = servingWith(createTarget)

    it.each([['POST'], ['PUT'], ['OPTIONS']])(
      '%s /movies/{id} gives 405 with Allow: GET, HEAD, PATCH, DELETE',
      async (method) => {
        const { log, http } = await serve()
        const movie = await log.addMovie(aMovie())
        const response = await http.fetch(`/movies/${movie.id}`, { method })
        expect(response.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE')
        await expectProblem(response, 405)
        expect(await log.getMovie(movie.id)).toEqual(movie)
      },
    )

    it('asks authorize about update and delete, and changes nothing when refused', async () => {
      const asked: MovieLogAction[] = []
      let allow = false
      const { log, http } = await serve(createMovieLog(), {
        authorize: (_request, action) => {
          asked.push(action)
          return allow || action === 'read'
        },
      })
      const movie = await log.addMovie(aMovie())
      const patch = () =>
        http.fetch(`/movies/${movie.id}`, {
          method: 'PATCH',
          headers: JSON_HEADERS,
          body: JSON.stringify({ title: 'Edited' }),
        })
      const remove = () => http.fetch(`/movies/${movie.id}`, { method: 'DELETE' })
      for (const response of [await patch(), await remove()]) {
        expect(response.status).toBe(401)
        expect(response.headers.get('www-authenticate')).toBe('Bearer realm="movie-log"')
      }
      expect(asked).toEqual(['update', 'delete'])
      expect(await log.getMovie(movie.id)).toEqual(movie)
      allow = true
      expect((await patch()).status).toBe(200)
      expect((await remove()).status).toBe(204)
      expect(asked).toEqual(['update', 'delete', 'update', 'delete'])
    })

    it('answers a 403 from authorize for an edit with 403', async () => {
      const { log, http } = await serve(createMovieLog(), {
        authorize: (_request, action) => (action === 'update' || action === 'delete' ? 403 : true),
      })
      const movie = await log.addMovie(aMovie())
      const response = await http.fetch(`/movies/${movie.id}`, { method: 'DELETE' })
      expect(response.status).toBe(403)
      expect(await log.getMovie(movie.id)).toEqual(movie)
    })

    describe('CORS', () => {
      const origin = 'https://movies.example'

      it.each([['PATCH'], ['DELETE']])(
        'allows a preflight for %s with If-Match on a movie',
        async (method) => {
          const { log, http } = await serve(createMovieLog(), { cors: [origin] })
          const movie = await log.addMovie(aMovie())
          const response = await http.fetch(`/movies/${movie.id}`, {
            method: 'OPTIONS',
            headers: {
              origin,
              'access-control-request-method': method,
              'access-control-request-headers': 'content-type, if-match',
            },
          })
          expect(response.status).toBe(204)
          expect(response.headers.get('access-control-allow-origin')).toBe(origin)
          const methods = response.headers.get('access-control-allow-methods')?.split(/,\s*/)
          expect(methods).toEqual(expect.arrayContaining(['GET', 'HEAD', 'PATCH', 'DELETE']))
          const headers = response.headers.get('access-control-allow-headers')?.toLowerCase()
          expect(headers?.split(/,\s*/)).toEqual(
            expect.arrayContaining(['content-type', 'if-match', 'if-none-match']),
          )
        },
      )

      it('exposes ETag on a movie and on an edit', async () => {
        const { log, http } = await serve(createMovieLog(), { cors: '*' })
        const movie = await log.addMovie(aMovie())
        const got = await http.fetch(`/movies/${movie.id}`, { headers: { origin } })
        expect(got.headers.get('access-control-allow-origin')).toBe('*')
        expect(got.headers.get('access-control-expose-headers')?.toLowerCase()).toMatch(/\betag\b/)
        const edited = await http.fetch(`/movies/${movie.id}`, {
          method: 'PATCH',
          headers: { ...JSON_HEADERS, origin, 'if-match': `"${versionOf(movie)}"` },
          body: JSON.stringify({ notes: 'x' }),
        })
        expect(edited.status).toBe(200)
        expect(edited.headers.get('access-control-expose-headers')?.toLowerCase()).toMatch(
          /\betag\b/,
        )
      })

      it('still refuses a preflight for POST on a movie', async () => {
        const { log, http } = await serve(createMovieLog(), { cors: [origin] })
        const movie = await log.addMovie(aMovie())
        const response = await http.fetch(`/movies/${movie.id}`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'POST' },
        })
        expect(response.status).toBe(403)
      })
    })
  },
)
