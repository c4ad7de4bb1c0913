import { createMovieLogs, type Movie, versionOf } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { expect, it } from 'vitest'
import { createResponseChecker } from './_openapi'
import { fixture, plexDelivery, requestInit } from './_scrobble'

// Plex's `media.rate` (issue 57): the rating goes to that person's latest entry of the movie.
const BASE = 'http://localhost/movies'
const checkResponse = createResponseChecker()
const SHAWSHANK = 'https://www.imdb.com/title/tt0111161/'

function serving() {
  const logs = createMovieLogs()
  const web = toWebHandler(logs, {
    timeZone: 'Europe/Paris',
    owner: (request) => request.headers.get('x-person') ?? undefined,
  })
  const send = async (payload: unknown, person = 'alice', thumb?: number) => {
    const request = new Request(
      `${BASE}/scrobble/plex`,
      requestInit(plexDelivery(payload, thumb), { 'x-person': person }),
    )
    const response = await web(request)
    await checkResponse('POST', new URL(request.url), response.clone())
    return response
  }
  return { logs, send }
}

const rate = (
  rating: unknown,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> => ({
  ...fixture('plex-movie-rate'),
  rating,
  ...overrides,
})

const entry = (screenedDate: string, imdbLink = SHAWSHANK, title = 'The Shawshank Redemption') => ({
  title,
  screenedDate,
  releaseYear: 1994,
  imdbLink,
})

it('rates the latest entry of the movie: 200 with it; the others as they were', async () => {
  const { logs, send } = serving()
  const alice = logs.of('alice')
  const older = await alice.addMovie(entry('2023-01-01T20:00:00.000'))
  const latest = await alice.addMovie(entry('2024-06-01T20:30:00.000'))
  // Added last, but screened before: the latest screening is what is rated.
  const earlier = await alice.addMovie(entry('2024-02-01T20:30:00.000'))
  const other = await alice.addMovie(
    entry('2025-01-01T20:00:00.000', 'https://www.imdb.com/title/tt0000001/'),
  )
  const response = await send(rate(7), 'alice', 300 * 1024)
  expect(response.status).toBe(200)
  const rated = (await response.json()) as Movie
  expect(rated).toEqual({ ...latest, rating: 7 })
  expect(response.headers.get('etag')).toBe(`"${versionOf(rated)}"`)
  expect((await alice.listMovies()).movies).toEqual([older, rated, earlier, other])
  // Taken away in Plex (0): the rating goes.
  const cleared = await send(rate(0))
  expect(cleared.status).toBe(200)
  expect(await cleared.json()).toEqual(latest)
})

it('reads Metadata.userRating when the event has no rating, rounded to whole points', async () => {
  const { logs, send } = serving()
  const latest = await logs.of('alice').addMovie(entry('2024-06-01T20:30:00.000'))
  const { rating: _rating, ...payload } = rate(undefined)
  // 7.6 as a client could send it: whole points are Plex's scale and ours.
  const metadata = { ...(payload.Metadata as object), userRating: 7.6 }
  const response = await send({ ...payload, Metadata: metadata })
  expect(response.status).toBe(200)
  expect(await response.json()).toEqual({ ...latest, rating: 8 })
})

it('answers 204 for a movie the person never logged, and stores nothing', async () => {
  const { logs, send } = serving()
  await logs.of('bob').addMovie(entry('2024-06-01T20:30:00.000'))
  const response = await send(rate(9), 'alice')
  expect(response.status).toBe(204)
  expect((await logs.of('alice').listMovies()).movies).toEqual([])
  // Another person's entry is not theirs to rate.
  expect((await logs.of('bob').listMovies()).movies[0]?.rating).toBeUndefined()
})

it('refuses a rating that is not one (400 naming rating), and leaves a shared user’s alone', async () => {
  const { logs, send } = serving()
  const latest = await logs.of('alice').addMovie(entry('2024-06-01T20:30:00.000'))
  for (const bad of ['7', 11, undefined]) {
    const response = await send(
      rate(bad, {
        Metadata: { ...(fixture('plex-movie-rate').Metadata as object), userRating: undefined },
      }),
    )
    expect(response.status, String(bad)).toBe(400)
    const problem = (await response.json()) as { errors: { pointer: string }[] }
    expect(problem.errors[0]?.pointer).toBe('/rating')
  }
  expect((await send(rate(7, { user: false }))).status).toBe(204)
  expect(await logs.of('alice').getMovie(latest.id)).toEqual(latest)
})
