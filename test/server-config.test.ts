import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { createMovieLog } from '../src/index'
import { ConfigError, configFromEnv } from '../src/server/config'
import { createApp, startServer } from '../src/server/server'
import { missingPackage, SERVER_PACKAGES } from '../src/server/start-errors'
import { aMovie } from './_movies'
import { freePort } from './_ports'
import { tempFolders } from './_temp'

const _tempFolder = tempFolders()

// A loopback name: the server, bound to 127.0.0.1, answers no other (DNS rebinding).
const ORIGIN = 'http://localhost:3000'

function appFor(env: Record<string, string>) {
  const app = createApp(createMovieLog(), configFromEnv(env))
  const request = (path: string, init: RequestInit = {}) =>
    app.fetch(new Request(ORIGIN + path, init))
  const post = (headers: Record<string, string> = {}) =>
    request('/movies', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(aMovie()),
    })
  return { request, post }
}

describe('the example server settings', () => {
  it('uses the contract defaults', () => {
    expect(configFromEnv({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      storeUrl: 'sqlite://./data/movies.sqlite',
      token: undefined,
      private: false,
      corsOrigins: undefined,
      maxStreams: 256,
      webhookPrivate: false,
    })
  })

  it('with MOVIE_LOG_TOKEN, needs the bearer token to add and leaves reads open', async () => {
    const { request, post } = appFor({ MOVIE_LOG_TOKEN: 's3cret' })
    expect((await post()).status).toBe(401)
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401)
    expect((await post({ authorization: 'Bearer s3cret' })).status).toBe(201)
    const list = await request('/movies')
    expect(list.status).toBe(200)
    expect(await list.json()).toHaveLength(1)
  })

  it('with MOVIE_LOG_TOKEN, needs the bearer token to edit and delete too', async () => {
    const { request, post } = appFor({ MOVIE_LOG_TOKEN: 's3cret' })
    const { id } = await (await post({ authorization: 'Bearer s3cret' })).json()
    const edit = (headers: Record<string, string> = {}) =>
      request(`/movies/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json', ...headers },
        body: JSON.stringify({ title: 'Edited' }),
      })
    const remove = (headers: Record<string, string> = {}) =>
      request(`/movies/${id}`, { method: 'DELETE', headers })
    const refused: Record<string, string>[] = [{}, { authorization: 'Bearer wrong' }]
    for (const headers of refused) {
      expect((await edit(headers)).status).toBe(401)
      expect((await remove(headers)).status).toBe(401)
    }
    expect((await (await request(`/movies/${id}`)).json()).title).toBe('Heat')
    expect((await edit({ authorization: 'Bearer s3cret' })).status).toBe(200)
    expect((await remove({ authorization: 'Bearer s3cret' })).status).toBe(204)
    expect((await request(`/movies/${id}`)).status).toBe(404)
  })

  it('with MOVIE_LOG_PRIVATE=1, needs the token to read too', async () => {
    const { request } = appFor({ MOVIE_LOG_TOKEN: 's3cret', MOVIE_LOG_PRIVATE: '1' })
    expect((await request('/movies')).status).toBe(401)
    expect((await request('/movies', { headers: { authorization: 'Bearer s3cret' } })).status).toBe(
      200,
    )
  })

  it('refuses MOVIE_LOG_PRIVATE=1 without a token', () => {
    expect(() => configFromEnv({ MOVIE_LOG_PRIVATE: '1' })).toThrow(ConfigError)
  })

  // Issue 61 item 3: `true` left the diary readable by anyone, in silence, and started without
  // a token where `1` was refused.
  it.each(['1', 'true', 'TRUE', 'yes', 'on', 'On', ' 1', 'true '])(
    'reads MOVIE_LOG_PRIVATE=%j as private: reads need the token, and a token is needed',
    async (value) => {
      const { request } = appFor({ MOVIE_LOG_TOKEN: 's3cret', MOVIE_LOG_PRIVATE: value })
      expect((await request('/movies')).status).toBe(401)
      expect(() => configFromEnv({ MOVIE_LOG_PRIVATE: value })).toThrow(
        /^MOVIE_LOG_PRIVATE=\S+ needs MOVIE_LOG_TOKEN/,
      )
    },
  )

  it.each(['0', 'false', 'No', 'off', ''])(
    'reads MOVIE_LOG_PRIVATE=%j as not private',
    async (value) => {
      const { request } = appFor({ MOVIE_LOG_TOKEN: 's3cret', MOVIE_LOG_PRIVATE: value })
      expect((await request('/movies')).status).toBe(200)
    },
  )

  it.each(['maybe', '2', 'y es', 'private'])('refuses MOVIE_LOG_PRIVATE=%j, naming it', (value) => {
    expect(() => configFromEnv({ MOVIE_LOG_TOKEN: 's3cret', MOVIE_LOG_PRIVATE: value })).toThrow(
      `MOVIE_LOG_PRIVATE must be 1 (or true, yes, on) or 0 (or false, no, off), not '${value}'`,
    )
  })

  it('says reads private in its start line when reads need the token', async () => {
    const lines: string[] = []
    const start = async (env: Record<string, string>) => {
      const config = configFromEnv({
        MOVIE_LOG_STORE: 'memory://',
        PORT: String(await freePort()),
        ...env,
      })
      const server = await startServer(config, (line) => lines.push(line))
      await server.close()
      return lines.at(-1)
    }
    expect(await start({ MOVIE_LOG_TOKEN: 's3cret', MOVIE_LOG_PRIVATE: 'yes' })).toMatch(
      /^movie-log listening on \S+ \(store: memory:\/\/, reads private; scrobbles in [^)]+\), the diary at /,
    )
    expect(await start({ MOVIE_LOG_TOKEN: 's3cret' })).not.toContain('private')
  })

  it('answers CORS preflights for MOVIE_LOG_CORS_ORIGINS', async () => {
    const { request } = appFor({ MOVIE_LOG_CORS_ORIGINS: 'https://a.example, https://b.example' })
    const preflight = (origin: string) =>
      request('/movies', {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      })
    expect((await preflight('https://b.example')).status).toBe(204)
    expect((await preflight('https://c.example')).status).toBe(403)
  })
})

describe('a package the server needs that is not installed', () => {
  it('is named from Node’s own error, and nothing else is taken for it', () => {
    // Node's error for a package that is not there, from a process of its own.
    const thrown = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "await import('listhen-not-installed/x').catch((e) => console.log(JSON.stringify({ code: e.code, message: e.message })))",
      ],
      { encoding: 'utf8' },
    )
    const { code, message } = JSON.parse(thrown) as { code: string; message: string }
    expect(missingPackage(Object.assign(new Error(message), { code }))).toBe(
      'listhen-not-installed',
    )
    expect(missingPackage(new Error(message))).toBeUndefined()
    expect(missingPackage(new TypeError('x is not a function'))).toBeUndefined()
    expect(SERVER_PACKAGES).toEqual(['h3', 'listhen'])
  })
})
