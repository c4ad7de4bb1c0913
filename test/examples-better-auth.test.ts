import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Movie } from 'movie-log'
import { toNodeHandler } from 'srvx/node'
import { afterEach, expect, it } from 'vitest'
import { createBetterAuthApp } from '../examples/better-auth'
import { aMovie } from './_movies'

let server: Server | undefined
afterEach(() => {
  server?.closeAllConnections()
  server?.close()
})

/** The example on a real server on a random port, better-auth told its own origin. */
async function start(): Promise<string> {
  server = createServer()
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  server.on('request', toNodeHandler(createBetterAuthApp(origin).fetch))
  return origin
}

/** Signs up (or in) through the app's /api/auth routes, as a browser would; the cookie it got. */
async function session(origin: string, path: string, body: object): Promise<string> {
  const response = await fetch(`${origin}/api/auth/${path}`, {
    method: 'POST',
    // better-auth refuses a POST without an Origin (its CSRF check); browsers always send one.
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(200)
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '')
  expect(cookies.some((cookie) => cookie.startsWith('better-auth.session_token='))).toBe(true)
  return cookies.join('; ')
}

it('gives each person who signs up with better-auth a diary of their own at /movies', async () => {
  const origin = await start()
  const ada = { name: 'Ada', email: 'ada@example.org', password: 'analytical engine' }
  const alan = { name: 'Alan', email: 'alan@example.org', password: 'universal machine' }
  const adaCookie = await session(origin, 'sign-up/email', ada)
  const alanCookie = await session(origin, 'sign-up/email', alan)

  const add = async (cookie: string, title: string) => {
    const response = await fetch(`${origin}/movies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify(aMovie({ title })),
    })
    expect(response.status).toBe(201)
    return (await response.json()) as Movie
  }
  const list = async (cookie: string) =>
    ((await (await fetch(`${origin}/movies`, { headers: { cookie } })).json()) as Movie[]).map(
      (movie) => movie.title,
    )

  const heat = await add(adaCookie, 'Heat')
  await add(adaCookie, 'Ran')
  const alien = await add(alanCookie, 'Alien')
  expect(await list(adaCookie)).toEqual(['Heat', 'Ran'])
  expect(await list(alanCookie)).toEqual(['Alien'])

  // Another's movie is not there for you, whatever id you name.
  const read = (cookie: string, movie: Movie) =>
    fetch(`${origin}/movies/${movie.id}`, { headers: { cookie } })
  expect((await read(alanCookie, heat)).status).toBe(404)
  expect((await read(adaCookie, alien)).status).toBe(404)
  expect(await (await read(adaCookie, heat)).json()).toEqual(heat)

  // Signing in again (a new session) reaches the same diary: it belongs to the user, not the session.
  const again = await session(origin, 'sign-in/email', { email: ada.email, password: ada.password })
  expect(again).not.toBe(adaCookie)
  expect(await list(again)).toEqual(['Heat', 'Ran'])

  // No session, or one better-auth did not issue: 401, and nothing written.
  expect((await fetch(`${origin}/movies`)).status).toBe(401)
  const forged = await fetch(`${origin}/movies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: 'better-auth.session_token=forged' },
    body: JSON.stringify(aMovie()),
  })
  expect(forged.status).toBe(401)
  expect(await list(adaCookie)).toEqual(['Heat', 'Ran'])
  expect(await list(alanCookie)).toEqual(['Alien'])
})
