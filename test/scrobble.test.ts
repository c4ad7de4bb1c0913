import { createMovieLog, createMovieLogs, type Movie } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { HTTP_TARGETS } from './_http-targets'
import { createResponseChecker } from './_openapi'
import {
  type Delivery,
  embyDelivery,
  FINISHED,
  finishedAt,
  fixture,
  genericDelivery,
  jellyfinDelivery,
  plexDelivery,
  requestInit,
} from './_scrobble'

const BASE = 'http://localhost/movies'
// Every answer of these tests is held to the OpenAPI document.
const checkResponse = createResponseChecker()

async function checked(request: Request, response: Promise<Response>): Promise<Response> {
  const answer = await response
  await checkResponse(request.method, new URL(request.url), answer.clone())
  return answer
}
const ZONE = 'Europe/Paris'

function serving(options: Parameters<typeof toWebHandler>[1] = {}) {
  const log = createMovieLog()
  const web = toWebHandler(log, { timeZone: ZONE, ...options })
  const handler = (request: Request) => checked(request, web(request))
  const send = (source: string, delivery: Delivery, query = '', headers = {}) =>
    handler(new Request(`${BASE}/scrobble/${source}${query}`, requestInit(delivery, headers)))
  return { log, send, handler }
}

const shawshank = {
  title: 'The Shawshank Redemption',
  releaseYear: 1994,
  imdbLink: 'https://www.imdb.com/title/tt0111161/',
  // 18:30 UTC on 1 June 2024 is 20:30 in Paris (CEST).
  screenedDate: '2024-06-01T20:30:00.000',
}

describe('POST /movies/scrobble/{source}', () => {
  it.each([
    ['plex', 'Scrobbled from Plex'],
    ['jellyfin', 'Scrobbled from Jellyfin'],
    ['emby', 'Scrobbled from Emby'],
    ['generic', 'Scrobbled from a webhook'],
  ])('logs a movie %s says was finished: 201, the watch in local time', async (source, notes) => {
    const { log, send } = serving()
    const response = await send(source, (FINISHED[source] as () => Delivery)())
    expect(response.status).toBe(201)
    const movie = (await response.json()) as Movie
    expect(movie).toMatchObject({ ...shawshank, screenedDate: watchOf(source), notes })
    expect(response.headers.get('location')).toBe(`${BASE}/${movie.id}`)
    expect((await log.listMovies()).movies).toEqual([movie])
  })

  it('reads Emby as a form with a data part, and a generic local time as given', async () => {
    const { send } = serving()
    const emby = await send('emby', embyDelivery(fixture('emby-movie-stop'), 'form'))
    expect(emby.status).toBe(201)
    expect(await emby.json()).toMatchObject(shawshank)
    const generic = await send('generic', genericDelivery(fixture('generic-movie-local-time')))
    expect(generic.status).toBe(201)
    expect(await generic.json()).toMatchObject({
      title: 'Heat',
      screenedDate: '2024-06-02T21:10:00.000',
      imdbLink: 'https://www.imdb.com/title/tt0113277/',
      notes: 'Kodi, living room',
    })
  })

  it('writes the watch in the time zone it is given', async () => {
    const { send } = serving({ timeZone: 'America/New_York' })
    const response = await send('plex', FINISHED.plex?.() as Delivery)
    expect(((await response.json()) as Movie).screenedDate).toBe('2024-06-01T14:30:00.000')
    expect(() => toWebHandler(createMovieLog(), { timeZone: 'Mars/Olympus' })).toThrow(
      /options\.timeZone: 'Mars\/Olympus' is not a time zone/,
    )
  })

  it.each(Object.keys(FINISHED))(
    'logs a %s delivery sent again once: 200 with the first movie; a rewatch is a new entry',
    async (source) => {
      const { log, send } = serving()
      const first = (await (
        await send(source, (FINISHED[source] as () => Delivery)())
      ).json()) as Movie
      const again = await send(source, (FINISHED[source] as () => Delivery)())
      expect(again.status).toBe(200)
      expect(await again.json()).toEqual(first)
      expect((await log.listMovies()).movies).toHaveLength(1)
      const rewatch = await send(source, rewatchOf(source))
      expect(rewatch.status).toBe(201)
      const movies = (await log.listMovies()).movies
      expect(movies.map((movie) => movie.screenedDate)).toEqual([
        watchOf(source),
        '2024-06-08T21:00:00.000',
      ])
    },
  )

  it.each([
    ['plex', 'a pause', () => plexDelivery(fixture('plex-movie-pause'))],
    ['plex', 'an episode', () => plexDelivery(fixture('plex-episode-scrobble'))],
    [
      'plex',
      "a shared user's watch sent to the server owner's webhook",
      () => plexDelivery(fixture('plex-movie-scrobble-shared-user-to-owner')),
    ],
    ['jellyfin', 'an episode', () => jellyfinDelivery(fixture('jellyfin-episode-stop'))],
    [
      'jellyfin',
      'a movie stopped early',
      () => jellyfinDelivery(fixture('jellyfin-movie-stopped-early')),
    ],
    ['emby', 'a pause', () => embyDelivery(fixture('emby-movie-pause'))],
    ['emby', 'an episode', () => embyDelivery(fixture('emby-episode-stop'))],
  ])('answers %s %s with 204 and stores nothing', async (source, _what, delivery) => {
    const { log, send } = serving()
    const response = await send(source, delivery())
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
    expect((await log.listMovies()).movies).toEqual([])
  })

  it.each([
    ['plex', () => plexDelivery(fixture('plex-movie-no-imdb')), '/Metadata/Guid'],
    ['jellyfin', () => jellyfinDelivery(fixture('jellyfin-movie-no-imdb')), '/Provider_imdb'],
    ['emby', () => embyDelivery(fixture('emby-movie-no-imdb')), '/Item/ProviderIds/Imdb'],
    [
      'generic',
      () => genericDelivery({ ...fixture('generic-movie'), imdbId: undefined }),
      '/imdbId',
    ],
  ])(
    'answers a finished %s movie without an IMDb id with 422 naming it',
    async (source, delivery, pointer) => {
      const { log, send } = serving()
      const response = await send(source, delivery())
      expect(response.status).toBe(422)
      expect(response.headers.get('content-type')).toBe('application/problem+json')
      const problem = (await response.json()) as { detail: string; errors: { pointer: string }[] }
      expect(problem.errors.map((error) => error.pointer)).toEqual([pointer])
      expect((await log.listMovies()).movies).toEqual([])
    },
  )

  it.each([
    ['plex', 'JSON', () => genericDelivery(fixture('plex-movie-scrobble'))],
    ['plex', "Jellyfin's payload in the form", () => plexDelivery(fixture('jellyfin-movie-stop'))],
    ['jellyfin', "Plex's form", () => plexDelivery(fixture('jellyfin-movie-stop'))],
    ['jellyfin', "Emby's payload", () => jellyfinDelivery(fixture('emby-movie-stop'))],
    ['emby', "Jellyfin's payload", () => embyDelivery(fixture('jellyfin-movie-stop'))],
    [
      'generic',
      'an unknown field',
      () => genericDelivery({ ...fixture('generic-movie'), rating: 5 }),
    ],
    [
      'generic',
      'no watchedAt',
      () => genericDelivery({ ...fixture('generic-movie'), watchedAt: undefined }),
    ],
    [
      'emby',
      'not JSON',
      () => ({ headers: { 'content-type': 'application/json' }, body: '{"Event":' }),
    ],
  ])('answers %s given %s with 400, storing nothing', async (source, _what, delivery) => {
    const { log, send } = serving()
    const response = await send(source, delivery())
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toBe('application/problem+json')
    expect((await log.listMovies()).movies).toEqual([])
  })

  it("logs Plex's movie from its payload part whatever its thumb's size, reading none of the image", async () => {
    const { log, send } = serving({ maxBodyBytes: 64 * 1024 })
    const delivery = plexDelivery(fixture('plex-movie-scrobble'), 50 * 1024 * 1024)
    const response = await send('plex', delivery)
    expect(response.status).toBe(201)
    expect(response.headers.get('connection')).toBe('close')
    expect((await log.listMovies()).movies).toHaveLength(1)
    // The payload and the image's first chunk at most: of 50 MiB, not one more read.
    expect(delivery.pulled?.()).toBeLessThan(200 * 1024)
    // A thumb within the limit is read to its end and dropped: the connection stays usable.
    const small = plexDelivery(fixture('plex-movie-scrobble-shared-user'), 30 * 1024)
    const logged = await send('plex', small)
    expect(logged.status).toBe(201)
    expect(logged.headers.get('connection')).toBeNull()
    expect(small.pulled?.()).toBeGreaterThan(30 * 1024)
    // A payload part past the limit is 413, all the same.
    const big = { ...fixture('plex-movie-scrobble'), padding: 'x'.repeat(70 * 1024) }
    expect((await send('plex', plexDelivery(big))).status).toBe(413)
  })

  it('takes the token from ?token= on scrobble routes, authorized as POST /movies', async () => {
    const asked: string[] = []
    const { log, send } = serving({
      authorize: (request, action) => {
        asked.push(`${action} ${request.url}`)
        return request.headers.get('authorization') === 'Bearer s3cret'
      },
    })
    expect((await send('plex', FINISHED.plex?.() as Delivery)).status).toBe(401)
    expect((await send('plex', FINISHED.plex?.() as Delivery, '?token=wrong')).status).toBe(401)
    expect((await send('plex', FINISHED.plex?.() as Delivery, '?token=s3cret')).status).toBe(201)
    expect(
      (
        await send('plex', FINISHED.plex?.() as Delivery, '', {
          authorization: 'Bearer s3cret',
        })
      ).status,
    ).toBe(200)
    expect(asked.every((line) => line.startsWith('add ') && !line.includes('s3cret'))).toBe(true)
    expect((await log.listMovies()).movies).toHaveLength(1)
  })

  it('puts each person’s scrobble in their own diary: the token picks the owner', async () => {
    const logs = createMovieLogs()
    const tokens: Record<string, string> = { 'alice-token': 'alice', 'bob-token': 'bob' }
    const handler = toWebHandler(logs, {
      timeZone: ZONE,
      owner: (request) => tokens[request.headers.get('authorization')?.slice(7) ?? ''],
    })
    const send = (token: string, payload: unknown) =>
      handler(
        new Request(`${BASE}/scrobble/plex?token=${token}`, requestInit(plexDelivery(payload))),
      )
    expect((await send('alice-token', fixture('plex-movie-scrobble'))).status).toBe(201)
    expect((await send('bob-token', fixture('plex-movie-scrobble-shared-user'))).status).toBe(201)
    expect((await send('nobody', fixture('plex-movie-scrobble'))).status).toBe(401)
    const titles = async (owner: string) =>
      (await logs.of(owner).listMovies()).movies.map((movie) => movie.title)
    expect(await titles('alice')).toEqual(['The Shawshank Redemption'])
    expect(await titles('bob')).toEqual(['Heat'])
  })

  it('answers other methods 405 and unknown sources 404', async () => {
    const { handler } = serving()
    const get = await handler(new Request(`${BASE}/scrobble/plex`))
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    const unknown = await handler(
      new Request(`${BASE}/scrobble/mediaportal`, requestInit(FINISHED.generic?.() as Delivery)),
    )
    expect(unknown.status).toBe(404)
  })
})

// Jellyfin's UtcTimestamp has the milliseconds of the stop; the others say whole seconds.
const watchOf = (source: string) =>
  source === 'jellyfin' ? '2024-06-01T20:30:00.452' : shawshank.screenedDate

describe.each(HTTP_TARGETS)('scrobbles through the %s', (_name, createTarget) => {
  it('logs Plex (a form, a thumb past the limit), Jellyfin (text/plain) and Emby once each', async () => {
    const log = createMovieLog()
    const target = await createTarget(log, { timeZone: ZONE, maxBodyBytes: 64 * 1024 })
    try {
      const deliveries: [string, () => Delivery][] = [
        ['plex', () => plexDelivery(fixture('plex-movie-scrobble'), 8 * 1024 * 1024)],
        ['jellyfin', () => jellyfinDelivery(fixture('jellyfin-movie-stop'))],
        ['emby', () => embyDelivery(fixture('emby-movie-stop'), 'form')],
      ]
      for (const [source, delivery] of deliveries) {
        const path = `/movies/scrobble/${source}`
        expect((await target.fetch(path, requestInit(delivery()))).status, source).toBe(201)
        expect((await target.fetch(path, requestInit(delivery()))).status, source).toBe(200)
      }
      const movies = (await log.listMovies()).movies
      expect(movies.map((movie) => movie.notes)).toEqual([
        'Scrobbled from Plex',
        'Scrobbled from Jellyfin',
        'Scrobbled from Emby',
      ])
    } finally {
      await target.close()
    }
  })
})

/** The same movie finished a week later (2024-06-08 19:00 UTC), as `source` reports it. */
const rewatchOf = (source: string): Delivery => finishedAt(source, '2024-06-08T19:00:00.0000000Z')
