import { spawnSync } from 'node:child_process'
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { ConfigError, configFromEnv } from '../src/server/config'
import { hashToken, ownerOfToken, parseUsers } from '../src/server/users'
import { aMovie } from './_movies'
import { CLI, launchServer, stop } from './_processes'
import { childrenOfEachTest } from './_server-client'
import { tempFolders } from './_temp'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const tempFolder = tempFolders()
const { start } = childrenOfEachTest()

/** `movie-log user add NAME --users FILE` as a person runs it: the token it printed. */
function addUser(file: string, name: string) {
  const result = spawnSync(process.execPath, [CLI, 'user', 'add', name, '--users', file], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { code: result.status, token: result.stdout.trim(), stderr: result.stderr }
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe('a household on the server (MOVIE_LOG_USERS)', () => {
  it('gives each person their own diary over HTTP, 401 without a known token, tokens kept hashed', async () => {
    const folder = tempFolder('movie-log-household-')
    const users = join(folder, 'users')
    const alice = addUser(users, 'alice')
    const bob = addUser(users, 'bob')
    expect([alice.code, bob.code]).toEqual([0, 0])
    expect(alice.token).toMatch(/^[\w-]{43}$/)
    expect(alice.token).not.toBe(bob.token)
    // The file holds each token's SHA-256, never the token, and only its owner may read it.
    const file = readFileSync(users, 'utf8')
    expect(file).toBe(
      `alice:${hashToken(alice.token).toString('hex')}\nbob:${hashToken(bob.token).toString('hex')}\n`,
    )
    expect(file).not.toContain(alice.token)
    expect(statSync(users).mode & 0o777).toBe(0o600)
    // A name there already keeps its token: exit 1, the file unchanged.
    expect(addUser(users, 'alice').code).toBe(1)
    expect(readFileSync(users, 'utf8')).toBe(file)

    const store = `sqlite://${join(folder, 'movies.sqlite')}`
    const server = await start({ MOVIE_LOG_STORE: store, MOVIE_LOG_USERS: users })
    expect(server.lines.join('\n')).toContain('a household of 2')
    const add = (token: string, title: string) =>
      fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(token) },
        body: JSON.stringify(aMovie({ title })),
      })
    const titles = async (token: string) => {
      const response = await fetch(server.url, { headers: bearer(token) })
      expect(response.status).toBe(200)
      return ((await response.json()) as Movie[]).map((movie) => movie.title)
    }

    const added = await add(alice.token, 'Heat')
    expect(added.status).toBe(201)
    const heat = (await added.json()) as Movie
    expect((await add(bob.token, 'Alien')).status).toBe(201)
    expect(await titles(alice.token)).toEqual(['Heat'])
    expect(await titles(bob.token)).toEqual(['Alien'])
    // Bob cannot reach Alice's movie by its id: it is not in his diary.
    const item = `${server.url}/${heat.id}`
    expect((await fetch(item, { headers: bearer(bob.token) })).status).toBe(404)
    expect((await fetch(item, { method: 'DELETE', headers: bearer(bob.token) })).status).toBe(404)
    expect((await fetch(item, { headers: bearer(alice.token) })).status).toBe(200)

    // No token, or one no one has, is 401 for every route of the log, reads too.
    for (const headers of [
      {},
      bearer('wrong'),
      bearer(`${alice.token}x`),
      { authorization: alice.token },
    ]) {
      for (const [url, method] of [
        [server.url, 'GET'],
        [item, 'GET'],
        [item, 'DELETE'],
      ] as const) {
        const response = await fetch(url, { method, headers })
        expect([url, method, response.status]).toEqual([url, method, 401])
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/)
      }
      const post = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(aMovie()),
      })
      expect(post.status).toBe(401)
    }
    expect(await titles(alice.token)).toEqual(['Heat'])

    expect(await stop(server)).toBe(0)
    const output = server.lines.join('\n')
    expect(output).toMatch(/GET \/movies 401/)
    expect(output).not.toContain(alice.token)
    expect(output).not.toContain(bob.token)
  })

  it('refuses to start on a users file it cannot use, with one line', async () => {
    const folder = tempFolder('movie-log-household-bad-')
    const users = join(folder, 'users')
    writeFileSync(users, 'alice:not-a-hash\n')
    const server = launchServer({ MOVIE_LOG_STORE: 'memory://', MOVIE_LOG_USERS: users })
    expect(await server.exited).toBe(1)
    expect(server.lines.join('\n')).toContain(
      `movie-log: cannot start: MOVIE_LOG_USERS: ${users} line 1: not 'name:hash'`,
    )
  })
})

describe('the users file and the token check', () => {
  const hash = (token: string) => hashToken(token).toString('hex')

  it('reads name:hash lines (the name is before the last colon), skipping blanks and comments', () => {
    const users = parseUsers(`# the household\n\nalice:${hash('a')}\r\nsam:the man:${hash('s')}\n`)
    expect(users.map((user) => user.name)).toEqual(['alice', 'sam:the man'])
  })

  it('refuses a line it cannot read, a name twice, and one token for two people', () => {
    expect(() => parseUsers(`alice:${hash('a')}\nbob`)).toThrow(/^line 2: not 'name:hash'/)
    expect(() => parseUsers(`:${hash('a')}`)).toThrow(/^line 1: The owner must be a non-empty/)
    expect(() => parseUsers(`alice:${hash('a')}\nalice:${hash('b')}`)).toThrow(
      /^line 2: 'alice' is there twice/,
    )
    expect(() => parseUsers(`alice:${hash('a')}\nbob:${hash('a')}`)).toThrow(
      /^line 2: the same token as an earlier line/,
    )
  })

  it('names the person whose token a request bears, and no one for any other', () => {
    const ownerOf = ownerOfToken(parseUsers(`alice:${hash('t-alice')}\nbob:${hash('t-bob')}`))
    const request = (authorization?: string) =>
      new Request('http://x/movies', { headers: authorization ? { authorization } : {} })
    expect(ownerOf(request('Bearer t-alice'))).toBe('alice')
    expect(ownerOf(request('bearer t-bob'))).toBe('bob')
    expect(ownerOf(request('Bearer t-carol'))).toBeUndefined()
    expect(ownerOf(request('t-alice'))).toBeUndefined()
    expect(ownerOf(request())).toBeUndefined()
  })

  it('reads MOVIE_LOG_USERS, and refuses it with MOVIE_LOG_TOKEN, missing or naming no one', () => {
    const folder = tempFolder('movie-log-household-config-')
    const users = join(folder, 'users')
    writeFileSync(users, `alice:${hash('a')}\n`)
    expect(configFromEnv({ MOVIE_LOG_USERS: users }).users?.map((user) => user.name)).toEqual([
      'alice',
    ])
    expect(() => configFromEnv({ MOVIE_LOG_USERS: users, MOVIE_LOG_TOKEN: 't' })).toThrow(
      /MOVIE_LOG_TOKEN and MOVIE_LOG_USERS are both set/,
    )
    expect(() => configFromEnv({ MOVIE_LOG_USERS: join(folder, 'none') })).toThrow(
      /cannot be read \(ENOENT\)/,
    )
    writeFileSync(users, '# no one yet\n')
    expect(() => configFromEnv({ MOVIE_LOG_USERS: users })).toThrow(ConfigError)
    expect(() => configFromEnv({ MOVIE_LOG_USERS: users })).toThrow(/names no one/)
  })
})
