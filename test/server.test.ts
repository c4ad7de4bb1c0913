import { once } from 'node:events'
import { connect } from 'node:net'
import { join } from 'node:path'
import type { Movie } from 'movie-log'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { freePort } from './_ports'
import {
  type Child,
  launchServer,
  type ServerProcess,
  startPrivateRedis,
  startServerProcess,
  stop,
} from './_processes'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()

const running: Child[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((child) => stop(child, 'SIGKILL')))
})

async function start(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const server = await startServerProcess(env, port)
  running.push(server)
  return server
}

const post = (url: string, body: unknown = aMovie()) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

const list = async (url: string) => (await (await fetch(url)).json()) as Movie[]

const sqliteUrl = () => `sqlite://${join(tempFolder('movie-log-server-'), 'db', 'movies.sqlite')}`

const stores: [string, () => string | undefined, boolean][] = [
  ['SQLite', sqliteUrl, true],
  ['memory', () => 'memory://', false],
  ['Redis', () => process.env.REDIS_URL, true],
  ['PostgreSQL', () => process.env.POSTGRES_URL, true],
]

describe.each(stores)('example server on %s', (name, storeUrl, durable) => {
  const url = storeUrl()
  it.skipIf(!url && process.env.CI !== 'true')(
    'adds and lists over HTTP, and keeps movies across a restart',
    async () => {
      expect(url, `${name} URL must be set under CI`).toBeDefined()
      const env = { MOVIE_LOG_STORE: url as string }
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
    },
  )
})

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

  it('logs one line per request, and a start line without the store password', async () => {
    const redis = await startPrivateRedis(undefined, ['--requirepass', 's3cret'])
    running.push(redis)
    const storeUrl = `redis://:s3cret@127.0.0.1:${redis.port}`
    const server = await start({ MOVIE_LOG_STORE: storeUrl })
    await fetch(server.url)
    await server.waitForLine(/^GET \/movies 200 \d+(\.\d+)?ms$/)
    expect(server.lines.join('\n')).not.toContain('s3cret')
    expect(server.lines[0]).toContain(`redis://:***@127.0.0.1:${redis.port}`)
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
    await expect.poll(() => received, { timeout: 5000, interval: 10 }).toContain('100 Continue')
    server.process.kill('SIGTERM')
    await server.waitForLine(/SIGTERM/)
    socket.end(body)
    await once(socket, 'close')
    expect(received).toMatch(/HTTP\/1\.1 201/)
    expect(await server.exited).toBe(0)
  })

  it('lets two servers on one Redis see all of 300 concurrent POSTs, in the same order', async () => {
    const redis = await startPrivateRedis()
    running.push(redis)
    const [first, second] = [
      await start({ MOVIE_LOG_STORE: redis.url }),
      await start({ MOVIE_LOG_STORE: redis.url }),
    ]
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, n) =>
        post((n % 2 ? first : second).url, aMovie({ title: `P${n}` })),
      ),
    )
    expect(responses.every((r) => r.status === 201)).toBe(true)
    const [seenByFirst, seenBySecond] = [await list(first.url), await list(second.url)]
    expect(seenByFirst).toHaveLength(300)
    expect(seenBySecond).toEqual(seenByFirst)
  })

  it('makes 50 concurrent retries of one Idempotency-Key over two servers on one Redis one movie', async () => {
    const redis = await startPrivateRedis()
    running.push(redis)
    const servers = [
      await start({ MOVIE_LOG_STORE: redis.url }),
      await start({ MOVIE_LOG_STORE: redis.url }),
    ]
    const body = JSON.stringify(aMovie({ title: 'Retried' }))
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        fetch(servers[n % 2]!.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': '"retry-me"' },
          body,
        }),
      ),
    )
    const created = responses.filter((r) => r.status === 201)
    expect(created.length).toBeGreaterThan(0)
    expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true)
    const ids = new Set(await Promise.all(created.map(async (r) => ((await r.json()) as Movie).id)))
    expect(ids.size).toBe(1)
    expect(await list(servers[0]!.url)).toHaveLength(1)
    expect(await list(servers[1]!.url)).toHaveLength(1)
  })

  it('answers a 2 MiB upload with 413 and stays up', async () => {
    const server = await start({ MOVIE_LOG_STORE: 'memory://' })
    const response = await post(server.url, aMovie({ notes: 'x'.repeat(2 * 1024 * 1024) }))
    expect(response.status).toBe(413)
    expect((await post(server.url)).status).toBe(201)
    expect(server.process.exitCode).toBeNull()
  })

  it('answers 503 while Redis is down, stays up, and serves again when Redis returns', async () => {
    const port = await freePort()
    let redis = await startPrivateRedis(port)
    running.push(redis)
    const server = await start({ MOVIE_LOG_STORE: redis.url })
    expect((await post(server.url)).status).toBe(201)

    await stop(redis, 'SIGKILL')
    const started = Date.now()
    const during = await post(server.url)
    expect(during.status).toBe(503)
    expect(during.headers.get('content-type')).toBe('application/problem+json')
    expect(Date.now() - started).toBeLessThan(10_000)
    expect((await fetch(server.url)).status).toBe(503)
    expect(server.process.exitCode).toBeNull()

    redis = await startPrivateRedis(port)
    running.push(redis)
    await expect
      .poll(async () => (await post(server.url)).status, { timeout: 10_000, interval: 200 })
      .toBe(201)
  })

  it.each([
    ['an unknown scheme', 'mongodb://127.0.0.1/x', /unknown store URL/],
    ['a malformed URL', 'not a url', /unknown store URL/],
    ['a Redis URL with no host', 'redis://', /not a valid URL/],
    ['a Postgres URL with no host', 'postgres://', /not a valid URL/],
    ['a SQLite URL with no file', 'sqlite://', /names no file/],
    ['an unreachable Redis', 'redis://127.0.0.1:1', /cannot be reached/],
    ['an unreachable Postgres', 'postgres://postgres@127.0.0.1:1/test', /cannot be reached/],
  ])('refuses to start on %s, with one clear line', async (_what, storeUrl, message) => {
    const started = Date.now()
    const child = launchServer({ MOVIE_LOG_STORE: storeUrl, PORT: String(await freePort()) })
    running.push(child)
    expect(await child.exited).toBe(1)
    expect(Date.now() - started).toBeLessThan(10_000)
    const output = child.lines.filter((line) => line.trim() !== '')
    expect(output).toHaveLength(1)
    expect(output[0]).toMatch(/^movie-log: cannot start: /)
    expect(output[0]).toMatch(message)
  })

  it('refuses a PORT that is not a port number', async () => {
    const child = launchServer({ MOVIE_LOG_STORE: 'memory://', PORT: 'eighty' })
    running.push(child)
    expect(await child.exited).toBe(1)
    expect(child.lines.join('\n')).toMatch(/^movie-log: cannot start: PORT must be a port number/m)
  })
})
