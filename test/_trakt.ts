/**
 * The published `trakt.tv` client (npm), used as its users use it with one setting changed: its
 * `api_url`, pointed at `{base}/trakt`. Its methods are made from its own methods.json at run
 * time, so the few this suite calls are typed here.
 */
import { createRequire } from 'node:module'
import { expect } from 'vitest'

// biome-ignore lint/suspicious/noExplicitAny: Trakt's JSON as the client parsed it, each test checks it
type Call = (params?: Record<string, unknown>) => Promise<any>

/** The `trakt.tv` client's surface this suite uses. */
export interface TraktClient {
  get_codes(): Promise<{
    device_code: string
    user_code: string
    verification_url: string
    expires_in: number
    interval: number
  }>
  poll_access(
    poll: object,
  ): Promise<{ access_token: string; refresh_token: string; expires_in: number }>
  refresh_token(): Promise<{ access_token: string; refresh_token: string }>
  revoke_token(): void
  export_token(): { access_token: string; refresh_token: string; expires: number }
  import_token(token: object): Promise<unknown>
  users: { settings: Call }
  scrobble: { start: Call; pause: Call; stop: Call }
  sync: {
    history: { get: Call; add: Call; remove: Call }
    ratings: { get: Call; add: Call; remove: Call }
    watched: Call
    last_activities: Call
  }
}

const Trakt = createRequire(import.meta.url)('trakt.tv') as new (settings: object) => TraktClient

/** A client of the log at `logUrl` (`http://host/movies`). */
export const traktClient = (logUrl: string): TraktClient =>
  new Trakt({ client_id: 'movie-log-test', client_secret: 'unused', api_url: `${logUrl}/trakt` })

/** The status of a call got refused (got's HTTPError), and its body. */
export async function refusal(
  call: Promise<unknown>,
  // biome-ignore lint/suspicious/noExplicitAny: Trakt's JSON error, each test checks it
): Promise<{ status: number; body: any }> {
  const error = (await call.then(
    () => expect.fail('expected a refusal'),
    (reason: unknown) => reason,
  )) as { response?: { statusCode: number; body: string } }
  const response = error.response
  if (!response) throw error
  return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : null }
}

/**
 * Signs `client` in by the device flow, the code approved as the diary page approves it: its
 * route, with the person's own bearer token.
 */
export async function signIn(client: TraktClient, logUrl: string, personToken: string) {
  const codes = await client.get_codes()
  const approved = await fetch(`${logUrl}/trakt/oauth/device/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${personToken}` },
    body: JSON.stringify({ user_code: codes.user_code }),
  })
  expect(approved.status).toBe(200)
  return { codes, tokens: await client.poll_access(codes) }
}

/** A movie as Trakt clients send it. */
export const traktMovie = (title: string, year: number, imdb: string) => ({
  title,
  year,
  ids: { trakt: 1, slug: title.toLowerCase().replaceAll(' ', '-'), imdb, tmdb: 2 },
})
