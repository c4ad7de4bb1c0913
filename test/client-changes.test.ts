import {
  createMovieLogClient,
  type Movie,
  MovieNotFoundError,
  MovieValidationError,
  PreconditionFailedError,
  versionOf,
} from 'movie-log/client'
import { describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { childrenOfEachTest } from './_server-client'

// The client's edits, deletes and dated lists against a fake fetch: what it sends, and how it
// reads each answer; then the same calls against a real example server.
const BASE = 'http://movie-log.test/movies'
const HEAT: Movie = {
  id: '01900000-0000-7000-8000-000000000001',
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
  notes: '',
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  })
const problem = (status: number, slug: string, errors?: unknown[]) =>
  new Response(
    JSON.stringify({
      type: `urn:movie-log:problem:${slug}`,
      title: slug,
      status,
      detail: slug,
      errors,
    }),
    { status, headers: { 'content-type': 'application/problem+json' } },
  )

/** A client whose every request is recorded and answered by `answer`, in turn. */
function fake(...answers: Response[]) {
  const requests: Request[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init))
    const next = answers.shift()
    if (!next) throw new Error('no answer left')
    return next
  }
  return { client: createMovieLogClient(BASE, { fetch, retries: 0 }), requests }
}

describe('movie-log/client edits and deletes', () => {
  it('patches a movie as a merge patch, with the version in If-Match', async () => {
    const changed = { ...HEAT, notes: 'Again.' }
    const { client, requests } = fake(json(200, changed), json(200, changed))
    expect(await client.updateMovie(HEAT.id, { notes: 'Again.' }, { ifMatch: 'abc123' })).toEqual(
      changed,
    )
    await client.updateMovie(HEAT.id, {}, { ifMatch: '*' })
    const [first, second] = requests
    expect(first?.method).toBe('PATCH')
    expect(first?.url).toBe(`${BASE}/${HEAT.id}`)
    expect(first?.headers.get('content-type')).toBe('application/merge-patch+json')
    expect(first?.headers.get('if-match')).toBe('"abc123"')
    expect(await first?.json()).toEqual({ notes: 'Again.' })
    expect(second?.headers.get('if-match')).toBe('*')
  })

  it('sends no If-Match when not asked to', async () => {
    const { client, requests } = fake(json(200, HEAT), new Response(null, { status: 204 }))
    await client.updateMovie(HEAT.id, {})
    await client.deleteMovie(HEAT.id)
    expect(requests.map((request) => request.headers.has('if-match'))).toEqual([false, false])
  })

  it('reads 412 as PreconditionFailedError, 404 as MovieNotFoundError, 400 as the field issues', async () => {
    const { client } = fake(
      problem(412, 'precondition-failed'),
      problem(404, 'movie-not-found'),
      problem(400, 'invalid-movie', [{ pointer: '/releaseYear', detail: 'must be an integer' }]),
    )
    const stale = await client.updateMovie(HEAT.id, {}, { ifMatch: 'old' }).catch((e) => e)
    expect(stale).toBeInstanceOf(PreconditionFailedError)
    expect(await client.updateMovie('gone', {}).catch((e) => e)).toBeInstanceOf(MovieNotFoundError)
    const invalid = await client.updateMovie(HEAT.id, { releaseYear: 'x' as never }).catch((e) => e)
    expect(invalid).toBeInstanceOf(MovieValidationError)
    expect((invalid as MovieValidationError).issues).toEqual([
      { path: 'releaseYear', message: 'must be an integer' },
    ])
  })

  it('deletes: 204 is true, 404 false, 412 a PreconditionFailedError', async () => {
    const { client, requests } = fake(
      new Response(null, { status: 204 }),
      problem(404, 'movie-not-found'),
      problem(412, 'precondition-failed'),
    )
    expect(await client.deleteMovie(HEAT.id, { ifMatch: 'abc' })).toBe(true)
    expect(await client.deleteMovie(HEAT.id)).toBe(false)
    const stale = await client.deleteMovie(HEAT.id, { ifMatch: 'old' }).catch((e) => e)
    expect(stale).toBeInstanceOf(PreconditionFailedError)
    expect(requests.map((request) => request.method)).toEqual(['DELETE', 'DELETE', 'DELETE'])
    expect(requests[0]?.headers.get('if-match')).toBe('"abc"')
  })
})

describe('movie-log/client dated lists', () => {
  it('sends sort, from and to with every page, and follows the next link', async () => {
    const { client, requests } = fake(
      json(200, [HEAT], { link: `<${BASE}?sort=-screenedDate&cursor=c1&limit=1000>; rel="next"` }),
      json(200, []),
    )
    const page = await client.listMovies({ sort: '-screenedDate', from: '2024', to: '2024-06' })
    expect(page).toEqual({ movies: [HEAT], nextCursor: null })
    const queries = requests.map((request) => Object.fromEntries(new URL(request.url).searchParams))
    expect(queries).toEqual([
      { limit: '1000', sort: '-screenedDate', from: '2024', to: '2024-06' },
      { limit: '1000', sort: '-screenedDate', from: '2024', to: '2024-06', cursor: 'c1' },
    ])
  })

  it('gives one page with its cursor when asked for a limit', async () => {
    const { client, requests } = fake(
      json(200, [HEAT], { link: `<${BASE}?cursor=c2&limit=1>; rel="next"` }),
    )
    const page = await client.listMovies({ sort: 'screenedDate', limit: 1, cursor: 'c1' })
    expect(page).toEqual({ movies: [HEAT], nextCursor: 'c2' })
    expect(Object.fromEntries(new URL(requests[0]!.url).searchParams)).toEqual({
      limit: '1',
      sort: 'screenedDate',
      cursor: 'c1',
    })
  })
})

describe('movie-log/client edits, deletes and dated lists against the example server', () => {
  const { start } = childrenOfEachTest()

  it('answers as the core does, over a real listening server', async () => {
    const server = await start({ MOVIE_LOG_STORE: 'memory://' })
    const log = createMovieLogClient(server.url)
    const dates = ['2023-12-31T23:59:59.999', '2024-03-01T10:00:00.000', '2024-07-01T10:00:00.000']
    const added = []
    for (const [n, screenedDate] of dates.entries()) {
      added.push(await log.addMovie(aMovie({ title: `M${n}`, screenedDate })))
    }
    const [old, spring, summer] = added
    // A dated walk, a page at a time, keeps its sort and range on every page.
    const first = await log.listMovies({ sort: '-screenedDate', from: '2024', limit: 1 })
    const rest = await log.listMovies({
      sort: '-screenedDate',
      from: '2024',
      cursor: first.nextCursor,
    })
    expect([...first.movies, ...rest.movies]).toEqual([summer, spring])
    expect(rest.nextCursor).toBeNull()

    const edited = await log.updateMovie(old!.id, { notes: 'New' }, { ifMatch: versionOf(old!) })
    expect(await log.getMovie(old!.id)).toEqual(edited)
    const stale = await log
      .updateMovie(old!.id, { notes: 'x' }, { ifMatch: versionOf(old!) })
      .catch((e: unknown) => e)
    expect(stale).toBeInstanceOf(PreconditionFailedError)
    expect(await log.updateMovie('nope', {}).catch((e: unknown) => e)).toBeInstanceOf(
      MovieNotFoundError,
    )
    expect(await log.deleteMovie(spring!.id, { ifMatch: versionOf(spring!) })).toBe(true)
    expect(await log.deleteMovie(spring!.id)).toBe(false)
    const gone = await log.deleteMovie(spring!.id, { ifMatch: '*' }).catch((e: unknown) => e)
    expect(gone).toBeInstanceOf(PreconditionFailedError)
    expect((await log.listMovies()).movies.map((movie) => movie.id)).toEqual([old!.id, summer!.id])
  })
})
