import { randomUUID } from 'node:crypto'
import { createMovieLog } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { editing, etagOf, expectProblem, servingWith } from './_http-helpers'
import { HTTP_TARGETS, type HttpTargetFactory } from './_http-targets'
import { aMovie } from './_movies'

describe.each(HTTP_TARGETS)(
  'HTTP edits and deletes: %s',
  (_name, createTarget: HttpTargetFactory) => {
    const serve = servingWith(createTarget)

    const { patch, remove } = editing

    describe('PATCH /movies/{id}', () => {
      it.each([
        ['application/merge-patch+json'],
        ['application/json'],
        ['application/json; charset=utf-8'],
      ])(
        'changes the fields sent as %s: 200, the whole movie, its new ETag',
        async (contentType) => {
          const { log, http } = await serve()
          const [movie, other] = [await log.addMovie(aMovie()), await log.addMovie(aMovie())]
          const response = await patch(
            http,
            movie.id,
            { title: ' Heat (director’s cut) ', catalogLink: 'https://imdb.com/title/tt1/' },
            { 'content-type': contentType },
          )
          expect(response.status).toBe(200)
          expect(response.headers.get('content-type')).toBe('application/json')
          const edited = {
            ...movie,
            title: 'Heat (director’s cut)',
            imdbLink: 'https://imdb.com/title/tt1/',
          }
          expect(await response.json()).toEqual(edited)
          expect(response.headers.get('etag')).toBe(etagOf(edited))
          expect((await log.listMovies()).movies).toEqual([edited, other])
          const empty = await patch(http, movie.id, {}, { 'content-type': contentType })
          expect(empty.status).toBe(200)
          expect(await empty.json()).toEqual(edited)
        },
      )

      it('refuses what POST refuses with 400, naming each field, and changes nothing', async () => {
        const { log, http } = await serve()
        const movie = await log.addMovie(aMovie())
        const fields = [
          [{ id: 'other' }, ['/id']],
          [{ notes: null }, ['/notes']],
          [{ colour: 'red' }, ['/colour']],
          [{ title: '', releaseYear: '1995' }, ['/title', '/releaseYear']],
          [{ imdbLink: 'https://user:pw@evil.example/' }, ['/imdbLink']],
        ] as const
        for (const [body, pointers] of fields) {
          const problem = await expectProblem(await patch(http, movie.id, body), 400)
          expect(problem.type).toBe('urn:movie-log:problem:invalid-movie')
          const named = problem.errors.map((error: { pointer: string }) => error.pointer)
          expect(named.sort(), JSON.stringify(body)).toEqual([...pointers].sort())
        }
        for (const body of ['{"title": ', '', '[]', '"Heat"', 'null']) {
          await expectProblem(await patch(http, movie.id, body), 400)
        }
        expect((await log.listMovies()).movies).toEqual([movie])
      })

      it('answers 404 for an unknown id, 415 for another content type, 413 past the limit', async () => {
        const { log, http } = await serve(createMovieLog(), { maxBodyBytes: 300 })
        const movie = await log.addMovie(aMovie())
        await expectProblem(await patch(http, randomUUID(), { title: 'Nobody' }), 404)
        for (const headers of [
          { 'content-type': 'text/plain' },
          {},
          { 'content-type': 'application/json-patch+json' },
        ] as Record<string, string>[]) {
          await expectProblem(await patch(http, movie.id, { title: 'x' }, headers), 415)
        }
        await expectProblem(await patch(http, movie.id, { notes: 'x'.repeat(400) }), 413)
        expect((await log.listMovies()).movies).toEqual([movie])
      })
    })

    describe('DELETE /movies/{id}', () => {
      it('answers 204 and the movie is gone; then 404', async () => {
        const { log, http } = await serve()
        const [movie, other] = [await log.addMovie(aMovie()), await log.addMovie(aMovie())]
        const deleted = await remove(http, movie.id)
        expect(deleted.status).toBe(204)
        expect(await deleted.text()).toBe('')
        expect(await (await http.fetch('/movies')).json()).toEqual([other])
        // GET, DELETE and PATCH of a missing movie: one problem type for one case.
        const answers = [
          await http.fetch(`/movies/${movie.id}`),
          await remove(http, movie.id),
          await patch(http, movie.id, { title: 'Back?' }),
        ]
        for (const answer of answers) {
          expect(await expectProblem(answer, 404)).toMatchObject({
            type: 'urn:movie-log:problem:movie-not-found',
            title: 'Movie not found',
          })
        }
      })
    })
  },
)
