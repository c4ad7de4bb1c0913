import { once } from 'node:events'
import { connect } from 'node:net'
import { join } from 'node:path'
import type { Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { freePort } from './_ports'
import { launchServer, stop } from './_processes'
import { childrenOfEachTest, list, post } from './_server-client'
import { describeWith, type Need } from './_services'
import { refusalOf } from './_start'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()

const { running, start } = childrenOfEachTest()

const sqliteUrl = () => `sqlite://${join(tempFolder('movie-log-server-'), 'db', 'movies.sqlite')}`

const stores: [string, () => string | undefined, boolean, Need?][] = [
  ['SQLite', sqliteUrl, true],
  ['memory', () => 'memory://', false],
  ['Redis', () => process.env.REDIS_URL, true, 'REDIS_URL'],
  ['PostgreSQL', () => process.env.POSTGRES_URL, true, 'POSTGRES_URL'],
]

for (const [name, storeUrl, durable, need] of stores) {
  const suite = () =>
    it('adds and lists over HTTP, and keeps movies across a restart', async () => {
      const env = { MOVIE_LOG_STORE: storeUrl() as string }
      const server = await start(env)
      const title = `${name} ${Date.now()}`
      const created = await post(server.url, aMovie({ title }))
      expect(created.status).toBe(201)
      const movie = (await created.json()) as Movie
      expect((await list(server.url)).map((m) => m.id)).toContain(movie.id)

      const root = await fetch(new URL('/', server.url))
      expect(await root.json()).toEqual({ name: 'movie-log', movies: '/movies' })

      expect(await stop(server)).toBe(0)
      const again = await start(env, server.port)
      const ids = (await list(again.url)).map((m) => m.id)
      expect(ids.includes(movie.id)).toBe(durable)
    })
  if (need) describeWith(need, `example server on ${name}`, suite)
  else describe(`example server on ${name}`, suite)
}

describe('example server', () => {
  it('creates the SQLite folder and keeps all of 100 acknowledged POSTs through kill -9', async () => {
    const env = { MOVIE_LOG_STORE: sqliteUrl() }
    const server = await start(env)
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, n) => post(server.url, aMovie({ title: `Burst ${n}` }))),
    )
    expect(responses.map((r) => r.status)).toEqual(Array(100).fill(201))
    const acknowledged = await Promise.all(
      responses.map(async (r) => ((await r.json()) as Movie).id),
    )

    expect(await stop(server, 'SIGKILL')).toBe('SIGKILL')
    const again = await start(env, server.port)
    const ids = new Set((await list(again.url)).map((m) => m.id))
    expect(acknowledged.filter((id) => !ids.has(id))).toEqual([])
  })

  it('finishes an in-flight request on SIGTERM, then exits 0', async () => {
    const server = await start({ MOVIE_LOG_STORE: 'memory://' })
    const body = JSON.stringify(aMovie({ title: 'In flight' }))
    const socket = connect(server.port, '127.0.0.1')
    let received = ''
    socket.on('data', (data) => {
      received += data.toString()
    })
    socket.write(
      'POST /movies HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
    )
    // The server says "100 Continue" once it holds the request: it is in flight from here.
    await expect.poll(() => received, { interval: 10 }).toContain('100 Continue')
    server.process.kill('SIGTERM')
    await server.waitForLine(/SIGTERM/)
    socket.end(body)
    await once(socket, 'close')
    expect(received).toMatch(/HTTP\/1\.1 201/)
    expect(await server.exited).toBe(0)
  })

  it('finishes its shutdown when a second signal follows the first (Ctrl-C under npm start)', async () => {
    const server = await start({ MOVIE_LOG_STORE: 'memory://' })
    expect((await post(server.url)).status).toBe(201)
    server.process.kill('SIGINT')
    await server.waitForLine(/SIGINT/)
    server.process.kill('SIGINT')
    expect(await server.exited).toBe(0)
  })

  it('answers a 2 MiB upload with 413 and stays up', async () => {
    const server = await start({ MOVIE_LOG_STORE: 'memory://' })
    const response = await post(server.url, aMovie({ notes: 'x'.repeat(2 * 1024 * 1024) }))
    expect(response.status).toBe(413)
    expect((await post(server.url)).status).toBe(201)
    expect(server.process.exitCode).toBeNull()
  })

  it.each([
    ['an unknown scheme', 'mongodb://127.0.0.1/x', /unknown store URL/],
    ['a malformed URL', 'not a url', /unknown store URL/],
    ['a Redis URL with no host', 'redis://', /not a Redis URL with a host/],
    ['a Postgres URL with no host', 'postgres://', /not a valid URL/],
    ['a SQLite URL with no file', 'sqlite://', /names no file/],
  ])('refuses to start on %s, with one clear line', async (_what, storeUrl, message) => {
    const line = await refusalOf({ MOVIE_LOG_STORE: storeUrl })
    expect(line).toMatch(/^movie-log: cannot start: /)
    expect(line).toMatch(message)
  })

  // A process per kind of refusal: each networked store that cannot be reached (its client's
  // handles must not keep the process alive), and a bad setting.
  it.each([
    ['Redis', 'redis://127.0.0.1:1'],
    ['Postgres', 'postgres://postgres@127.0.0.1:1/test'],
  ])('refuses to start on an unreachable %s: one line, exit 1, no hang', async (_, url) => {
    const child = launchServer({ MOVIE_LOG_STORE: url, PORT: String(await freePort()) })
    running.push(child)
    // It ends by itself: a start that waits on an unreachable store forever fails the test.
    expect(await child.exited).toBe(1)
    const output = child.lines.filter((line) => line.trim() !== '')
    expect(output).toEqual([expect.stringMatching(/^movie-log: cannot start: .*cannot be reached/)])
  })

  it('refuses a PORT that is not a port number', async () => {
    const child = launchServer({ MOVIE_LOG_STORE: 'memory://', PORT: 'eighty' })
    running.push(child)
    expect(await child.exited).toBe(1)
    expect(child.lines.join('\n')).toMatch(/^movie-log: cannot start: PORT must be a port number/m)
  })
})
