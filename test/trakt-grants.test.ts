import { createMovieLogs } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { serving, TOKEN } from './_trakt-web'

// Issue 59: the apps a person approved through Trakt's device flow, listed and revoked from the
// diary page; and /sync/last_activities, whose times move only when the diary does.
const BASE = 'http://localhost/movies/trakt'
const person = { authorization: `Bearer ${TOKEN}` }

describe('the apps a person approved', () => {
  it('are listed with their client_id, and one revoked stops acting, refresh and all', async () => {
    const { web, post, signedIn } = serving()
    const call = (method: string, path: string, headers: Record<string, string> = person) =>
      web(new Request(`${BASE}${path}`, { method, headers }))
    expect(await (await call('GET', '/oauth/grants')).json()).toEqual([])
    const app = await signedIn()
    const other = await signedIn()
    const apps = await (await call('GET', '/oauth/grants')).json()
    expect(apps).toEqual([
      { id: 0, approvedAt: expect.stringMatching(/Z$/), client: 'x' },
      { id: 1, approvedAt: expect.stringMatching(/Z$/), client: 'x' },
    ])
    expect((await app.get('/sync/history')).status).toBe(200)
    // Only the person may list or revoke: no token, or an app's Trakt token, is refused.
    expect((await call('GET', '/oauth/grants', {})).status).toBe(401)
    expect((await call('DELETE', '/oauth/grants/0', {})).status).toBe(401)
    const revoked = await call('DELETE', '/oauth/grants/0')
    expect(revoked.status).toBe(204)
    expect((await app.get('/sync/history')).status).toBe(401)
    expect((await other.get('/sync/history')).status).toBe(200)
    expect((await call('DELETE', '/oauth/grants/0')).status).toBe(404)
    expect((await call('DELETE', '/oauth/grants/x')).status).toBe(404)
    expect(await (await call('GET', '/oauth/grants')).json()).toEqual([apps[1]])
    // A page of another site cannot revoke one.
    const forged = await call('DELETE', '/oauth/grants/1', {
      ...person,
      origin: 'http://evil.example',
      'sec-fetch-site': 'cross-site',
    })
    expect(forged.status).toBe(403)
    expect((await other.get('/sync/history')).status).toBe(200)
    expect((await post('/trakt/oauth/grants', {}, person)).status).toBe(405)
  })

  it('refreshed, keep their grant: revoking it stops the new tokens too', async () => {
    const { web, post, codes, answer, poll } = serving()
    const { device_code, user_code } = await codes()
    await answer(user_code)
    const first = await (await poll(device_code)).json()
    const refreshed = await (
      await post('/trakt/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
      })
    ).json()
    const history = (token: string) =>
      web(new Request(`${BASE}/sync/history`, { headers: { authorization: `Bearer ${token}` } }))
    expect((await history(refreshed.access_token)).status).toBe(200)
    await web(new Request(`${BASE}/oauth/grants/0`, { method: 'DELETE', headers: person }))
    expect((await history(refreshed.access_token)).status).toBe(401)
    const again = await post('/trakt/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: refreshed.refresh_token,
    })
    expect(again.status).toBe(401)
  })

  it('on a household server, are each person’s own: another’s cannot be seen or revoked', async () => {
    const logs = createMovieLogs()
    const web = toWebHandler(logs, {
      owner: (request) =>
        ({ 'Bearer alice-token': 'alice', 'Bearer bob-token': 'bob' })[
          request.headers.get('authorization') ?? ''
        ],
    })
    const send = (path: string, token: string, method = 'GET', body?: unknown) =>
      web(
        new Request(`${BASE}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      )
    const codes = await (
      await send('/oauth/device/code', 'none', 'POST', { client_id: 'tv' })
    ).json()
    await send('/oauth/device/approve', 'alice-token', 'POST', { user_code: codes.user_code })
    const tokens = await (
      await send('/oauth/device/token', 'none', 'POST', { code: codes.device_code })
    ).json()
    expect(await (await send('/oauth/grants', 'bob-token')).json()).toEqual([])
    expect((await send('/oauth/grants/0', 'bob-token', 'DELETE')).status).toBe(404)
    expect((await send('/sync/history', tokens.access_token)).status).toBe(200)
    expect(await (await send('/oauth/grants', 'alice-token')).json()).toMatchObject([
      { id: 0, client: 'tv' },
    ])
  })
})

describe('/sync/last_activities', () => {
  it('moves watched_at when the history changes, rated_at when a rating does, from any route', async () => {
    const { log, signedIn } = serving()
    const trakt = await signedIn()
    const activities = async () =>
      (await (await trakt.get('/sync/last_activities')).json()) as {
        all: string
        movies: { watched_at: string; rated_at: string }
      }
    const first = await activities()
    // Nothing changed: the same times, so a client skips its sync.
    expect(await activities()).toEqual(first)
    // An add through the log's own API (the page's), not Trakt's.
    const added = await log.addMovie(aMovie())
    const second = await activities()
    expect(second.movies.watched_at > first.movies.watched_at).toBe(true)
    expect(second.movies.rated_at).toBe(first.movies.rated_at)
    expect(second.all).toBe(second.movies.watched_at)
    await log.updateMovie(added.id, { rating: 8 })
    const third = await activities()
    expect(third.movies.rated_at > second.movies.rated_at).toBe(true)
    expect(third.movies.watched_at).toBe(second.movies.watched_at)
    expect(await activities()).toEqual(third)
    // Back to a state seen before: a change all the same, later than the last.
    await log.deleteMovie(added.id)
    const fourth = await activities()
    expect(fourth.movies.watched_at > third.movies.watched_at).toBe(true)
    expect(fourth.movies.rated_at > third.movies.rated_at).toBe(true)
  })
})
