import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { newToken, userLine } from '../src/server/users'
import { aMovie } from './_movies'
import { CLI } from './_processes'
import { childrenOfEachTest } from './_server-client'
import { tempFolders } from './_temp'

// Share links on the server (issue 60): a household of two on SQLite, Alice's diary shared by
// the command, and nothing of Bob's, no write, no token reachable from her link.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const tempFolder = tempFolders()
const { start } = childrenOfEachTest()
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

/** `movie-log share …` as a person runs it. */
function share(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [CLI, 'share', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  })
  return { code: result.status, out: result.stdout, err: result.stderr }
}

/** A GET of a raw path: no URL parser in between to resolve `..` or decode `%2F` first. */
function rawGet(origin: string, path: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(origin)
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const sent = httpRequest({ hostname, port, path, headers }, (response) => {
      let body = ''
      response.setEncoding('utf8')
      response.on('data', (chunk) => {
        body += chunk
      })
      response.on('end', () => resolve({ status: response.statusCode as number, body }))
    })
    sent.on('error', reject)
    sent.end()
  })
}

describe('share links on a household server', () => {
  it('opens one diary, read-only: no other owner’s movie, note or route, no write, no token', async () => {
    const folder = tempFolder('movie-log-share-')
    const users = join(folder, 'users')
    const tokens = { alice: newToken(), bob: newToken() }
    writeFileSync(users, userLine('alice', tokens.alice) + userLine('bob', tokens.bob))
    const store = `sqlite://${join(folder, 'movies.sqlite')}`
    const server = await start({ MOVIE_LOG_STORE: store, MOVIE_LOG_USERS: users })
    const origin = new URL(server.url).origin
    const add = async (token: string, movie: Record<string, unknown>) => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(token) },
        body: JSON.stringify(aMovie(movie)),
      })
      expect(response.status).toBe(201)
      return (await response.json()) as Movie
    }
    const heat = await add(tokens.alice, { title: 'Heat', notes: 'alice-secret-note' })
    const alien = await add(tokens.bob, { title: 'Alien', notes: 'bob-secret-note' })

    // Off until its owner turns it on: the command, as Alice's household runs it.
    const env = { MOVIE_LOG_STORE: store, PORT: String(server.port) }
    expect(share(['status', '--user', 'alice'], env).err).toContain('sharing is off')
    // Called wrongly: a usage error (exit 2), nothing shared.
    expect(share(['publish', '--user', 'alice'], env)).toMatchObject({ code: 2 })
    expect(share(['off', '--notes', '--user', 'alice'], env)).toMatchObject({ code: 2 })
    const on = share(['on', '--user', 'alice'], env)
    expect(on.code).toBe(0)
    const link = /^(\S+)$/m.exec(on.out)?.[1] as string
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/s/[A-Za-z0-9_-]{32}$`))
    const path = new URL(link).pathname
    expect(share(['status', '--owner', 'alice'], env).out).toContain(link)

    // The page, read-only: no form, no token asked, noindex, the page's headers.
    const page = await fetch(`${origin}${path}`, { headers: { accept: 'text/html' } })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).not.toMatch(/<form|<dialog|<input|diary-[A-Z0-9]+\.js|share-[A-Z0-9]+\.js/)
    expect(html).toContain('<meta name="robots" content="noindex">')
    expect(html).toContain(
      `<link rel="alternate" type="application/rss+xml" title="Movie diary (RSS)" href="${path}/rss">`,
    )
    expect(page.headers.get('x-robots-tag')).toBe('noindex')
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(page.headers.get('referrer-policy')).toBe('no-referrer')

    // Alice's movies, no notes; nothing of Bob's anywhere a link reaches.
    const listed = await fetch(`${origin}${path}/movies`)
    expect(listed.status).toBe(200)
    expect(await listed.json()).toEqual(
      [{ ...heat, notes: undefined }].map(({ notes: _, ...movie }) => movie),
    )
    const reads = [
      '',
      '/movies',
      '/rss',
      '/ics',
      '/movies?limit=1',
      '/movies?sort=-screenedDate&from=2000',
    ]
    for (const suffix of reads) {
      const response = await fetch(`${origin}${path}${suffix}`)
      expect(response.status, suffix).toBe(200)
      const text = await response.text()
      for (const secret of ['Alien', alien.id, 'bob', 'secret-note', tokens.alice, tokens.bob])
        expect(text, `${suffix} ${secret}`).not.toContain(secret)
    }
    expect((await fetch(`${origin}${path}/movies?q=secret`)).status).toBe(400)

    // Another owner's ids, the owner's own routes, writes and paths out of the link: never 2xx.
    const unknown = await rawGet(origin, '/s/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/movies')
    expect(unknown.status).toBe(404)
    const refused = [
      `${path}/${alien.id}`,
      `${path}/movies/${alien.id}`,
      `${path}/movies/${heat.id}`,
      `/movies${path}/${alien.id}`,
      `${path}/share`,
      `${path}/movies/share`,
      `${path}/stats`,
      `${path}/movies/stats`,
      `${path}/openapi.json`,
      `${path}/trakt/sync/history`,
      `${path}/scrobble/plex`,
      `${path}/movies/movies`,
      `${path}/..%2F..%2Fmovies`,
      `${path}/%2e%2e/%2e%2e/movies`,
      `${path}/../../movies`,
      `${path}%2F..%2F..%2Fmovies`,
      `${path}/movies/..%2F..%2F..%2Fmovies%2Fshare`,
      `/s/..%2Fmovies`,
      `/s/${encodeURIComponent('../movies')}`,
    ]
    for (const target of refused) {
      const answer = await rawGet(origin, target)
      expect(answer.status, target).toBeGreaterThanOrEqual(400)
      for (const secret of ['Alien', 'Heat', 'secret-note', tokens.alice, tokens.bob])
        expect(answer.body, `${target} ${secret}`).not.toContain(secret)
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      for (const suffix of ['', '/movies', `/movies/${heat.id}`, '/rss', '/ics']) {
        const response = await fetch(`${origin}${path}${suffix}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(aMovie({ title: 'Planted' })),
        })
        expect(response.status, `${method} ${suffix}`).toBeGreaterThanOrEqual(400)
      }
    }
    const aliceNow = await fetch(server.url, { headers: bearer(tokens.alice) })
    expect(((await aliceNow.json()) as Movie[]).map((movie) => movie.title)).toEqual(['Heat'])

    // A new link revokes the old: the old token is answered as a token never made.
    const renewed = await fetch(`${server.url}/share`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(tokens.alice) },
      body: JSON.stringify({ notes: true, index: true }),
    })
    expect(renewed.status).toBe(200)
    const next = (await renewed.json()) as { path: string; token: string; notes: boolean }
    expect(next.notes).toBe(true)
    expect(next.path).not.toBe(path)
    for (const suffix of ['', '/movies', '/rss', '/ics']) {
      const old = await rawGet(origin, `${path}${suffix}`, { accept: 'text/html' })
      const never = await rawGet(origin, `/s/${'B'.repeat(32)}${suffix}`, { accept: 'text/html' })
      expect([old.status, old.body]).toEqual([404, never.body])
    }
    // Bob's own link is his: his token reads his (off), never Alice's.
    const bobs = await fetch(`${server.url}/share`, { headers: bearer(tokens.bob) })
    expect(bobs.status).toBe(404)
    expect((await fetch(`${server.url}/share`)).status).toBe(401)
    // Notes now shared (and searched), search engines let in.
    const withNotes = await fetch(`${origin}${next.path}/movies?q=secret`)
    expect(((await withNotes.json()) as Movie[]).map((movie) => movie.notes)).toEqual([
      'alice-secret-note',
    ])
    expect(withNotes.headers.get('x-robots-tag')).toBeNull()
    const indexed = await fetch(`${origin}${next.path}`, { headers: { accept: 'text/html' } })
    expect(await indexed.text()).not.toContain('name="robots"')

    // 304 on If-None-Match, the page included.
    for (const suffix of ['', '/movies', '/rss', '/ics']) {
      const headers = { accept: suffix ? '*/*' : 'text/html' }
      const first = await fetch(`${origin}${next.path}${suffix}`, { headers })
      const etag = first.headers.get('etag') as string
      const again = await fetch(`${origin}${next.path}${suffix}`, {
        headers: { ...headers, 'if-none-match': etag },
      })
      expect(again.status, suffix).toBe(304)
    }

    // Off: the link is gone.
    expect(share(['off', '--user', 'alice'], env).code).toBe(0)
    expect((await fetch(`${origin}${next.path}/movies`)).status).toBe(404)
  }, 120_000)
})
