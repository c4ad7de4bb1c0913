/**
 * The Trakt tests' harness: a web handler on memory whose diary page signs in with `TOKEN`, and
 * a client signed in through the device flow as Trakt's clients do.
 */
import { createMovieLog } from 'movie-log'
import { type MovieLogHttpOptions, toWebHandler } from 'movie-log/web'

const BASE = 'http://localhost/movies'
export const TOKEN = 'person-token'

/** A handler (more `options` than the time zone when given) and its Trakt client's steps. */
export function serving(options: Omit<MovieLogHttpOptions, 'authorize'> = {}) {
  const log = createMovieLog()
  const authorize = (request: Request) => request.headers.get('authorization') === `Bearer ${TOKEN}`
  const web = toWebHandler(log, { timeZone: 'Europe/Paris', ...options, authorize })
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    web(
      new Request(`${BASE}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
    )
  const codes = async () =>
    (await (await post('/trakt/oauth/device/code', { client_id: 'x' })).json()) as {
      device_code: string
      user_code: string
    }
  const answer = (userCode: string, approve = true) =>
    post(
      '/trakt/oauth/device/approve',
      { user_code: userCode, approve },
      { authorization: `Bearer ${TOKEN}` },
    )
  const poll = (code: string) => post('/trakt/oauth/device/token', { code, client_id: 'x' })
  const signedIn = async () => {
    const { device_code, user_code } = await codes()
    await answer(user_code)
    const tokens = (await (await poll(device_code)).json()) as { access_token: string }
    const authorization = `Bearer ${tokens.access_token}`
    return Object.assign(
      (path: string, body: unknown) => post(`/trakt${path}`, body, { authorization }),
      {
        post: (path: string, body: unknown) => post(`/trakt${path}`, body, { authorization }),
        get: (path: string) =>
          web(new Request(`${BASE}/trakt${path}`, { headers: { authorization } })),
      },
    )
  }
  return { log, web, post, codes, answer, poll, signedIn }
}
