import fc from 'fast-check'
import { createMovieLog, type Movie } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'

// fast-check's default size keeps strings short, whatever maxLength says: lengths matter here.
import { aMovie } from './_movies'
import { runs } from './_runs'
import { anyText, webPath } from './_text'

const ORIGIN = 'http://movie-log.test'

function serve() {
  const log = createMovieLog()
  // A 500 fails the property through its status; logging each one would flood the output.
  const handle = toWebHandler(log, { onError: () => {} })
  const post = (body: string) =>
    handle(
      new Request(`${ORIGIN}/movies`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    )
  return { log, handle, post }
}

/** Posts a body; checks the answer is a 201 that reads back byte-for-byte, or a 400 that stored nothing. */
async function postAndCheck(body: string) {
  const { log, handle, post } = serve()
  const response = await post(body)
  const text = await response.text()
  // Small JSON-typed bodies: a movie, or a body that is not one (never a 5xx, nor another 4xx).
  expect([201, 400]).toContain(response.status)
  if (response.status !== 201) {
    expect(response.headers.get('content-type')).toBe('application/problem+json')
    expect((await log.listMovies()).movies).toEqual([])
    return
  }
  const movie = JSON.parse(text) as Movie
  const read = await handle(new Request(`${ORIGIN}/movies/${encodeURIComponent(movie.id)}`))
  expect(await read.text()).toBe(text)
  // What was stored passes the rules again, as it is.
  const { id: _id, ...fields } = movie
  await expect(createMovieLog().addMovie(fields)).resolves.toMatchObject(fields)
}

describe('property: the handler never crashes, never 5xx, never stores an invalid movie', () => {
  it('for arbitrary JSON bodies', async () => {
    await fc.assert(
      fc.asyncProperty(fc.json(), (body) => postAndCheck(body)),
      { numRuns: runs(300) },
    )
  })

  it('for arbitrary bytes as the body', async () => {
    await fc.assert(
      fc.asyncProperty(anyText(), (body) => postAndCheck(body)),
      { numRuns: runs(200) },
    )
  })

  it.each(['title', 'screenedDate', 'imdbLink', 'notes', 'catalogLink'])(
    'for arbitrary strings in %s',
    async (field) => {
      await fc.assert(
        fc.asyncProperty(anyText({ maxLength: 600, size: 'max' }), (value) =>
          postAndCheck(JSON.stringify(aMovie({ [field]: value }))),
        ),
        { numRuns: runs(200) },
      )
    },
  )

  it('for arbitrary values in releaseYear', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), (value) =>
        postAndCheck(JSON.stringify(aMovie({ releaseYear: value }))),
      ),
      { numRuns: runs(200) },
    )
  })

  // An object whose toString and valueOf are not functions cannot become a string: a message
  // that printed such a value threw, and the request ended in a 500.
  const unprintable = fc.dictionary(fc.constantFrom('toString', 'valueOf'), fc.jsonValue(), {
    minKeys: 1,
  })

  it.each(['title', 'screenedDate', 'releaseYear', 'imdbLink', 'notes', 'catalogLink', 'a.b/c~'])(
    'for values that cannot become strings, in %j',
    async (field) => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(unprintable, fc.jsonValue()), (value) =>
          postAndCheck(JSON.stringify(aMovie({ [field]: value }))),
        ),
        { numRuns: runs(100) },
      )
      const { post } = serve()
      const response = await post(JSON.stringify(aMovie({ [field]: { toString: [] } })))
      expect(response.status).toBe(400)
      const problem = (await response.json()) as { errors: { pointer: string }[] }
      // RFC 6901: the key is one segment, '~' and '/' escaped.
      const pointer = `/${field.replaceAll('~', '~0').replaceAll('/', '~1')}`
      expect(problem.errors.map((error) => error.pointer)).toEqual([pointer])
    },
  )

  it('for valid movies built from arbitrary parts, which are all kept exactly', async () => {
    const validMovie = fc.record({
      title: fc
        .string({ minLength: 1, maxLength: 500, size: 'max' })
        .filter((title) => title.trim() === title && title !== ''),
      screenedDate: fc
        .date({
          min: new Date('1900-01-01T00:00:00Z'),
          max: new Date('2099-12-31T23:59:59Z'),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString().slice(0, 23)),
      releaseYear: fc.integer({ min: 1870, max: 9999 }),
      imdbLink: fc
        .tuple(fc.constantFrom('imdb.com', 'www.imdb.com', 'm.imdb.com'), webPath())
        .map(([host, path]) => `https://${host}${path}`)
        .filter((url) => url.length <= 2048 && !/\s/.test(url)),
      notes: fc.string({ maxLength: 2000, size: 'max' }),
    })
    await fc.assert(
      fc.asyncProperty(validMovie, async (movie) => {
        const { post } = serve()
        const response = await post(JSON.stringify(movie))
        expect(response.status).toBe(201)
        expect(await response.json()).toMatchObject(movie)
      }),
      { numRuns: runs(200) },
    )
  })
})
