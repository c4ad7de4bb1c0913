import { createMovieLog, type MovieLog } from 'movie-log'
import type { MovieLogAction, MovieLogHttpOptions } from 'movie-log/web'
import { afterEach, describe, expect, it } from 'vitest'
import { hungStore } from './_flaky-map'
import { HTTP_TARGETS, type HttpTarget, type HttpTargetFactory } from './_http-targets'
import { aMovie } from './_movies'

const JSON_HEADERS = { 'content-type': 'application/json' }

describe.each(HTTP_TARGETS)('access and limits: %s', (_name, createTarget: HttpTargetFactory) => {
  let target: HttpTarget | undefined
  afterEach(() => target?.close())

  async function serve(options: MovieLogHttpOptions, log: MovieLog = createMovieLog()) {
    target = await createTarget(log, options)
    return { log, http: target }
  }

  const post = (http: HttpTarget, headers: Record<string, string> = {}) =>
    http.fetch('/movies', {
      method: 'POST',
      headers: { ...JSON_HEADERS, ...headers },
      body: JSON.stringify(aMovie()),
    })

  describe('authorize', () => {
    it('asks for each action and lets allowed requests through', async () => {
      const asked: MovieLogAction[] = []
      const { http } = await serve({
        authorize: (_request, action) => {
          asked.push(action)
          return true
        },
      })
      const created = await post(http)
      expect(created.status).toBe(201)
      const { id } = await created.json()
      expect((await http.fetch('/movies')).status).toBe(200)
      expect((await http.fetch(`/movies/${id}`)).status).toBe(200)
      expect(asked).toEqual(['add', 'list', 'read'])
    })

    it('answers false with 401 and WWW-Authenticate, and stores nothing', async () => {
      const { log, http } = await serve({ authorize: (_request, action) => action !== 'add' })
      const response = await post(http)
      expect(response.status).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="movie-log"')
      expect(response.headers.get('content-type')).toBe('application/problem+json')
      expect(await response.json()).toMatchObject({
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
      })
      expect((await log.listMovies()).movies).toEqual([])
      expect((await http.fetch('/movies')).status).toBe(200)
    })

    it('answers 403 when authorize says 403, and may decide by the request', async () => {
      const { http } = await serve({
        authorize: async (request) =>
          request.headers.get('authorization') === 'Bearer ok' ? true : 403,
      })
      const forbidden = await http.fetch('/movies')
      expect(forbidden.status).toBe(403)
      expect(forbidden.headers.get('www-authenticate')).toBeNull()
      expect(
        (await http.fetch('/movies', { headers: { authorization: 'Bearer ok' } })).status,
      ).toBe(200)
    })
  })

  describe('CORS', () => {
    const origin = 'https://movies.example'

    it('answers a preflight from an allowed origin with the methods and headers', async () => {
      const { http } = await serve({ cors: [origin] })
      const response = await http.fetch('/movies', {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, idempotency-key',
        },
      })
      expect(response.status).toBe(204)
      expect(response.headers.get('access-control-allow-origin')).toBe(origin)
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST')
      expect(response.headers.get('access-control-allow-headers')).toMatch(/Content-Type/)
    })

    it('refuses a preflight from another origin, or for a method the resource lacks', async () => {
      const { http } = await serve({ cors: [origin] })
      const preflight = (from: string, method: string, path = '/movies') =>
        http.fetch(path, {
          method: 'OPTIONS',
          headers: { origin: from, 'access-control-request-method': method },
        })
      const stranger = await preflight('https://evil.example', 'POST')
      expect(stranger.status).toBe(403)
      expect(stranger.headers.get('content-type')).toBe('application/problem+json')
      expect(stranger.headers.get('access-control-allow-origin')).toBeNull()
      expect((await preflight(origin, 'DELETE')).status).toBe(403)
    })

    it('marks answers to allowed origins, errors included, and exposes Location', async () => {
      const { http } = await serve({ cors: '*' })
      const created = await post(http, { origin })
      expect(created.headers.get('access-control-allow-origin')).toBe('*')
      expect(created.headers.get('access-control-expose-headers')).toMatch(/Location/)
      const list = await http.fetch('/movies', { headers: { origin } })
      expect(list.headers.get('vary')).toBe('accept, origin')
      const error = await http.fetch('/movies?limit=0', { headers: { origin } })
      expect(error.status).toBe(400)
      expect(error.headers.get('access-control-allow-origin')).toBe('*')
    })

    it('adds nothing without the option, and OPTIONS stays 405', async () => {
      const { http } = await serve({})
      const response = await http.fetch('/movies', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET' },
      })
      expect(response.status).toBe(405)
      expect(response.headers.get('access-control-allow-origin')).toBeNull()
    })
  })

  describe('Idempotency-Key', () => {
    it('replays the first 201 for a retry, stores one movie, and refuses another body with 422', async () => {
      const { log, http } = await serve({})
      const first = await post(http, {
        'idempotency-key': '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
      })
      const retry = await post(http, {
        'idempotency-key': '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
      })
      expect([first.status, retry.status]).toEqual([201, 201])
      expect(retry.headers.get('location')).toBe(first.headers.get('location'))
      expect(await retry.text()).toBe(await first.text())
      expect((await log.listMovies()).movies).toHaveLength(1)

      const other = await http.fetch('/movies', {
        method: 'POST',
        headers: { ...JSON_HEADERS, 'idempotency-key': '"8e03978e-40d5-43e8-bc93-6894a57f9324"' },
        body: JSON.stringify(aMovie({ title: 'Something else' })),
      })
      expect(other.status).toBe(422)
      expect(other.headers.get('content-type')).toBe('application/problem+json')
      expect((await log.listMovies()).movies).toHaveLength(1)
    })

    it('refuses a malformed key with 400', async () => {
      const { log, http } = await serve({})
      expect((await post(http, { 'idempotency-key': 'has space' })).status).toBe(400)
      expect((await log.listMovies()).movies).toEqual([])
    })
  })

  describe('limits', () => {
    it('answers 503 when the store hangs past the store timeout, saying so', async () => {
      // Every store call hangs (a Map cannot, so it has no timer).
      const log = createMovieLog(hungStore(), { storeTimeoutMs: 200 })
      const { http } = await serve({}, log)
      // The store never answers: only the timeout can (store-failure.test.ts times it).
      const response = await post(http)
      expect(response.status).toBe(503)
      expect((await response.json()).detail).toMatch(/did not answer in time/)
      const list = await http.fetch('/movies')
      expect(list.status).toBe(503)
    })

    it('answers 503 with Retry-After past the cap on adds in flight', async () => {
      const release: (() => void)[] = []
      const slow: MovieLog = {
        ...createMovieLog(),
        // A whole movie, as a log answers: the response is checked against the document.
        addMovie: () =>
          new Promise((resolve) =>
            release.push(() => resolve({ id: 'slow', ...aMovie() } as never)),
          ),
      }
      const { http } = await serve({ maxConcurrentAdds: 1 }, slow)
      const first = post(http)
      await expect.poll(() => release.length).toBe(1)
      const second = await post(http)
      expect(second.status).toBe(503)
      expect(second.headers.get('retry-after')).toBe('1')
      release[0]?.()
      expect((await first).status).toBe(201)
    })
  })
})
