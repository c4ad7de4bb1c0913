import { randomUUID } from 'node:crypto'
import type { Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { editing, etagOf, expectProblem, MERGE_PATCH, servingWith } from './_http-helpers'
import { HTTP_TARGETS, type HttpTargetFactory } from './_http-targets'
import { aMovie } from './_movies'

describe.each(HTTP_TARGETS)(
  'HTTP ETag, If-None-Match, If-Match: %s',
  (_name, createTarget: HttpTargetFactory) => {
    const serve = servingWith(createTarget)
    const { patch, remove } = editing

    describe('ETag', () => {
      it('tags the movie a POST created', async () => {
        const { log, http } = await serve()
        const created = await http.fetch('/movies', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(aMovie()),
        })
        expect(created.status).toBe(201)
        const movie = (await created.json()) as Movie
        expect(created.headers.get('etag')).toBe(etagOf(movie))
        expect(await log.getMovie(movie.id)).toEqual(movie)
      })

      it('tags GET and HEAD of a movie, and answers a matching If-None-Match with 304', async () => {
        const { log, http } = await serve()
        const movie = await log.addMovie(aMovie())
        const etag = etagOf(movie)
        const got = await http.fetch(`/movies/${movie.id}`)
        expect(got.status).toBe(200)
        expect(got.headers.get('etag')).toBe(etag)
        expect(
          (await http.fetch(`/movies/${movie.id}`, { method: 'HEAD' })).headers.get('etag'),
        ).toBe(etag)
        // If-None-Match compares weakly (RFC 9110 13.1.2): W/ and lists match too.
        for (const ifNoneMatch of [etag, `"0123456789abcdef", ${etag}`, `W/${etag}`, '*']) {
          const cached = await http.fetch(`/movies/${movie.id}`, {
            headers: { 'if-none-match': ifNoneMatch },
          })
          expect(cached.status, ifNoneMatch).toBe(304)
          expect(cached.headers.get('etag')).toBe(etag)
          expect(await cached.text()).toBe('')
        }
        const other = await http.fetch(`/movies/${movie.id}`, {
          headers: { 'if-none-match': '"0123456789abcdef"' },
        })
        expect(other.status).toBe(200)
        expect(await other.json()).toEqual(movie)
        // Once edited, the old tag no longer matches.
        const edited = await log.updateMovie(movie.id, { title: 'Edited' })
        const fresh = await http.fetch(`/movies/${movie.id}`, {
          headers: { 'if-none-match': etag },
        })
        expect(fresh.status).toBe(200)
        expect(fresh.headers.get('etag')).toBe(etagOf(edited))
        expect(await fresh.json()).toEqual(edited)
      })
    })

    describe('If-Match', () => {
      it('changes with the current tag, refuses a stale one with 412 and changes nothing', async () => {
        const { log, http } = await serve()
        const movie = await log.addMovie(aMovie())
        const stale = etagOf(movie)
        const first = await patch(
          http,
          movie.id,
          { title: 'First' },
          { ...MERGE_PATCH, 'if-match': stale },
        )
        expect(first.status).toBe(200)
        const edited = (await first.json()) as Movie
        for (const ifMatch of [stale, `W/${etagOf(edited)}`, '"0123456789abcdef"']) {
          const headers = { ...MERGE_PATCH, 'if-match': ifMatch }
          const refused = await expectProblem(
            await patch(http, movie.id, { title: 'Lost' }, headers),
            412,
          )
          expect(refused.status).toBe(412)
          await expectProblem(await remove(http, movie.id, { 'if-match': ifMatch }), 412)
        }
        expect((await log.listMovies()).movies).toEqual([edited])
        const listed = { ...MERGE_PATCH, 'if-match': `${stale}, ${etagOf(edited)}` }
        const second = await patch(http, movie.id, { notes: 'Second' }, listed)
        expect(second.status).toBe(200)
        const current = (await second.json()) as Movie
        expect((await remove(http, movie.id, { 'if-match': etagOf(current) })).status).toBe(204)
        expect((await log.listMovies()).movies).toEqual([])
      })

      it('answers If-Match: * with 412 when the movie is missing, and takes it when present', async () => {
        const { log, http } = await serve()
        const movie = await log.addMovie(aMovie())
        const missing = randomUUID()
        await expectProblem(
          await patch(http, missing, { title: 'x' }, { ...MERGE_PATCH, 'if-match': '*' }),
          412,
        )
        await expectProblem(await remove(http, missing, { 'if-match': '*' }), 412)
        await expectProblem(await remove(http, missing, { 'if-match': etagOf(movie) }), 412)
        const starred = await patch(
          http,
          movie.id,
          { title: 'Starred' },
          { ...MERGE_PATCH, 'if-match': '*' },
        )
        expect(starred.status).toBe(200)
        expect((await remove(http, movie.id, { 'if-match': '*' })).status).toBe(204)
        expect((await log.listMovies()).movies).toEqual([])
      })
    })
  },
)

// Issue 61 item 6: stats said no-store while the list, a movie and the exports, which depend on
// the token just as much, said nothing, so a shared cache could keep one person's diary.
describe.each(HTTP_TARGETS)('Cache-Control of the reads: %s', (_name, createTarget) => {
  const serve = servingWith(createTarget)

  it('every read of the log is private, no-cache; a movie still revalidates by its ETag', async () => {
    const { log, http } = await serve()
    const movie = await log.addMovie(aMovie())
    const reads: [string, RequestInit?][] = [
      ['/movies'],
      ['/movies?limit=1'],
      ['/movies', { headers: { accept: 'application/x-ndjson' } }],
      ['/movies', { headers: { accept: 'text/csv' } }],
      ['/movies/stats'],
      [`/movies/${movie.id}`],
      [`/movies/${movie.id}`, { method: 'HEAD' }],
      [`/movies/${movie.id}`, { headers: { 'if-none-match': etagOf(movie) } }],
    ]
    const answers: string[] = []
    for (const [path, init] of reads) {
      const response = await http.fetch(path, init)
      await response.arrayBuffer()
      answers.push(
        `${init?.method ?? 'GET'} ${path} ${response.status} ${response.headers.get('cache-control')}`,
      )
    }
    expect(answers).toEqual(
      reads.map(
        ([path, init], index) =>
          `${init?.method ?? 'GET'} ${path} ${index === reads.length - 1 ? 304 : 200} private, no-cache`,
      ),
    )
    // The document is the same for everyone: no `private`.
    const document = await http.fetch('/movies/openapi.json')
    expect(document.headers.get('cache-control')).toBe('no-cache')
  })
})
