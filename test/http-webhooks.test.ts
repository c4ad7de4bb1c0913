// Issue 60: an owner's outgoing webhook endpoints over HTTP, {base}/webhooks, on every adapter,
// each answer held to the OpenAPI document; `authorize` asked about `webhooks`; and in a
// household, one owner's endpoints out of every other owner's reach.
import { createMovieLog, createMovieLogs } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { HTTP_TARGETS } from './_http-targets'
import { createResponseChecker } from './_openapi'

const JSON_BODY = { 'content-type': 'application/json' }
// Every host a public address, with no lookup leaving the machine.
const PUBLIC = { lookup: async () => ['93.184.215.14'] }
const post = (body: unknown) => ({
  method: 'POST',
  headers: JSON_BODY,
  body: JSON.stringify(body),
})

describe.each(HTTP_TARGETS)('{base}/webhooks on %s', (_name, serve) => {
  it('registers, lists, reads and removes an endpoint; the secret only once', async () => {
    const target = await serve(createMovieLog(), { webhooks: PUBLIC })
    try {
      const created = await target.fetch(
        '/movies/webhooks',
        post({ url: 'https://example.org/hooks', events: ['movie.added', 'movie.deleted'] }),
      )
      expect(created.status).toBe(201)
      const endpoint = await created.json()
      expect(endpoint).toMatchObject({
        url: 'https://example.org/hooks',
        events: ['movie.added', 'movie.deleted'],
        secret: expect.stringMatching(/^whsec_/),
      })
      expect(created.headers.get('location')).toBe(
        `${target.origin}/movies/webhooks/${endpoint.id}`,
      )
      const listed = await target.fetch('/movies/webhooks')
      expect(listed.status).toBe(200)
      const shown = { ...endpoint, status: 'active', lastError: null, nextAttemptAt: null }
      delete shown.secret
      expect(await listed.json()).toEqual([shown])
      const one = await target.fetch(`/movies/webhooks/${endpoint.id}`)
      expect(await one.json()).toEqual(shown)
      const removed = await target.fetch(`/movies/webhooks/${endpoint.id}`, { method: 'DELETE' })
      expect(removed.status).toBe(204)
      const again = await target.fetch(`/movies/webhooks/${endpoint.id}`, { method: 'DELETE' })
      expect(again.status).toBe(404)
      expect(await (await target.fetch('/movies/webhooks')).json()).toEqual([])
    } finally {
      await target.close()
    }
  })

  it('refuses a bad endpoint naming its fields, another content type and another method', async () => {
    const target = await serve(createMovieLog(), { webhooks: PUBLIC })
    try {
      const bad = await target.fetch(
        '/movies/webhooks',
        post({ url: 'http://192.168.1.20:8123/api/webhook/x', events: [] }),
      )
      expect(bad.status).toBe(400)
      const problem = await bad.json()
      expect(problem.type).toBe('urn:movie-log:problem:invalid-webhook')
      expect(problem.errors).toEqual([
        { pointer: '/url', detail: expect.stringContaining('private network') },
        { pointer: '/events', detail: expect.stringContaining('non-empty list') },
      ])
      const text = await target.fetch('/movies/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{}',
      })
      expect(text.status).toBe(415)
      const put = await target.fetch('/movies/webhooks', { method: 'PUT' })
      expect(put.status).toBe(405)
      expect(put.headers.get('allow')).toBe('GET, HEAD, POST')
      expect(await (await target.fetch('/movies/webhooks')).json()).toEqual([])
    } finally {
      await target.close()
    }
  })

  it('lets a private address in when the handler allows private networks', async () => {
    const target = await serve(createMovieLog(), { webhooks: { allowPrivateNetworks: true } })
    try {
      const created = await target.fetch(
        '/movies/webhooks',
        post({ url: 'http://192.168.1.20:8123/api/webhook/movies' }),
      )
      expect(created.status).toBe(201)
      expect((await created.json()).events).toEqual([
        'movie.added',
        'movie.updated',
        'movie.deleted',
      ])
    } finally {
      await target.close()
    }
  })

  it('asks authorize about webhooks, for reading them too', async () => {
    const asked: string[] = []
    const target = await serve(createMovieLog(), {
      authorize: (_request, action) => {
        asked.push(action)
        return action === 'list' || action === 'read'
      },
    })
    try {
      expect((await target.fetch('/movies/webhooks')).status).toBe(401)
      expect(
        (await target.fetch('/movies/webhooks', post({ url: 'https://example.org/' }))).status,
      ).toBe(401)
      expect(asked).toEqual(['webhooks', 'webhooks'])
    } finally {
      await target.close()
    }
  })
})

describe('{base}/webhooks in a household', () => {
  it("shows and changes each owner's endpoints alone", async () => {
    const logs = createMovieLogs()
    const handle = toWebHandler(logs, {
      owner: (request) => request.headers.get('x-owner') ?? undefined,
      webhooks: PUBLIC,
    })
    const check = createResponseChecker('/movies')
    const as = async (owner: string, path: string, init: RequestInit = {}) => {
      const url = `http://movie-log.test${path}`
      const headers = { ...(init.headers as Record<string, string>), 'x-owner': owner }
      const response = await handle(new Request(url, { ...init, headers }))
      await check(init.method ?? 'GET', new URL(url), response.clone())
      return response
    }
    const hers = await (
      await as('alice', '/movies/webhooks', post({ url: 'https://alice.example/hooks' }))
    ).json()
    await as('bob', '/movies/webhooks', post({ url: 'https://bob.example/hooks' }))
    const bobs = await (await as('bob', '/movies/webhooks')).json()
    expect(bobs.map((endpoint: { url: string }) => endpoint.url)).toEqual([
      'https://bob.example/hooks',
    ])
    expect((await as('bob', `/movies/webhooks/${hers.id}`)).status).toBe(404)
    expect((await as('bob', `/movies/webhooks/${hers.id}`, { method: 'DELETE' })).status).toBe(404)
    const alices = await (await as('alice', '/movies/webhooks')).json()
    expect(alices.map((endpoint: { id: string }) => endpoint.id)).toEqual([hers.id])
  })
})
