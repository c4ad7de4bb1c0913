// Issue 37, the server's items: store URLs printed with their passwords (3), DNS rebinding (4),
// unbounded streams (5), and a SQLite folder that cannot be made spinning a core forever (9).
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { platform } from 'node:os'
import { toNodeHandler } from 'h3/node'
import { createMovieLog, type MovieLog } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it, vi } from 'vitest'
import { redact } from '../src/core/store-url'
import { openSqliteDriver } from '../src/drivers/sqlite/driver'
import { ConfigError, configFromEnv } from '../src/server/config'
import { hostFilter } from '../src/server/hosts'
import { createApp, startServer } from '../src/server/server'
import { explainStoreFailure } from '../src/server/start-errors'
import { openCheckedLog } from '../src/server/store'
import { aMovie } from './_movies'
import { freePort } from './_ports'
import { childrenOfEachTest } from './_server-client'

describe('a store URL as it is printed (issue 37 item 3)', () => {
  it.each([
    [
      'a password in the query',
      'postgres://u@h/db?password=hunter2',
      'postgres://u@h/db?password=***',
    ],
    [
      'every secret-like parameter',
      'postgres://u@h/db?sslmode=require&sslpassword=hunter2&pass=hunter2&pwd=hunter2&token=hunter2',
      'postgres://u@h/db?sslmode=require&sslpassword=***&pass=***&pwd=***&token=***',
    ],
    ['user info holding @', 'postgres://u:p@ss@h/db', 'postgres://u:***@h/db'],
    ['a Redis password holding @', 'redis://:p@ss@h', 'redis://:***@h'],
    ['a password holding / and ?', 'redis://u:p/a?ss@h:6379/0', 'redis://u:***@h:6379/0'],
    [
      'a cluster',
      'redis+cluster://:s3cret@h1:7000,h2:7001',
      'redis+cluster://:***@h1:7000,h2:7001',
    ],
    [
      'an @ in a plain parameter',
      'postgres://u@h/db?application_name=me@home',
      'postgres://u@h/db?application_name=me@home',
    ],
    ['a SQLite path', 'sqlite://./data/movies.sqlite', 'sqlite://./data/movies.sqlite'],
  ])('hides %s', (_what, url, shown) => {
    expect(redact(url)).toBe(shown)
  })

  it.each([
    ['a bad port', 'postgres://u:hunter2@h:99999/db'],
    ['a parameter that is not one', 'postgres://u@h/db?password hunter2'],
    ['no //', 'postgres:u:hunter2@h/db'],
    ['no scheme', 'hunter2'],
  ])('never prints a malformed URL whole: %s', (_what, url) => {
    expect(redact(url)).not.toContain('hunter2')
  })

  it('the start errors and the command say it so: a refused store, a malformed URL', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    const line = explainStoreFailure('postgres://u@127.0.0.1:1/db?password=hunter2', refused)
    expect(line).toBe(
      'the store postgres://u@127.0.0.1:1/db?password=*** cannot be reached: connection refused (ECONNREFUSED)',
    )
    for (const url of ['postgres://u:hunter2@h:99999/db', 'redis://:hunter2@h:99999']) {
      const opening = openCheckedLog(url)
      await expect(opening).rejects.toThrow(/'(postgres|redis):\/\/\*\*\*'/)
      await expect(opening).rejects.not.toThrow(/hunter2/)
    }
  })
})

describe('the Host a server answers (issue 37 item 4)', () => {
  const appAt = (config: { host?: string; hosts?: string[] }) => {
    const app = createApp(createMovieLog(), config)
    return (host: string, path = '/movies', init: RequestInit = {}) =>
      app.fetch(new Request(`http://${host}${path}`, init))
  }
  const post = {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(aMovie()),
  }

  it('bound to loopback, answers loopback names and addresses, with any port', () => {
    const allowed = hostFilter('127.0.0.1') as (host: string) => boolean
    for (const host of [
      'localhost',
      'localhost:3000',
      '127.0.0.1:80',
      '127.1.2.3',
      '[::1]:3000',
      'LOCALHOST.',
      'app.localhost',
    ])
      expect(allowed(host), host).toBe(true)
    for (const host of [
      'evil.example',
      '127.0.0.1.evil.example',
      '10.0.0.1',
      '[::2]',
      'localhost.evil',
    ])
      expect(allowed(host), host).toBe(false)
    expect(hostFilter('::1')?.('evil.example')).toBe(false)
    expect(hostFilter('localhost', ['movies.home'])?.('Movies.Home:8080')).toBe(true)
  })

  it('bound elsewhere, answers any host unless MOVIE_LOG_HOSTS names them', () => {
    expect(hostFilter('0.0.0.0')).toBeUndefined()
    const named = hostFilter('0.0.0.0', ['movies.home']) as (host: string) => boolean
    expect([named('movies.home:3000'), named('127.0.0.1:3000'), named('evil.example')]).toEqual([
      true,
      true,
      false,
    ])
    expect(configFromEnv({ MOVIE_LOG_HOSTS: ' movies.home, ,nas.local' }).hosts).toEqual([
      'movies.home',
      'nas.local',
    ])
  })

  it('the default server refuses a rebound name on every route, 421 problem+json', async () => {
    const request = appAt({})
    for (const [path, init] of [
      ['/movies', post],
      ['/movies', {}],
      ['/', {}],
      ['/docs', {}],
    ] as const) {
      const response = await request('evil.example', path, init)
      expect(response.status, path).toBe(421)
      expect(response.headers.get('content-type')).toBe('application/problem+json')
      expect(response.headers.get('location')).toBeNull()
      expect((await response.json()).title).toBe('Misdirected Request')
    }
    expect((await request('localhost:3000', '/movies', post)).status).toBe(201)
    expect((await request('127.0.0.1:3000', '/docs')).status).toBe(200)
  })

  it('with MOVIE_LOG_HOSTS, the names it gives are answered too', async () => {
    const request = appAt({ host: '127.0.0.1', hosts: ['movies.home'] })
    const added = await request('movies.home:3000', '/movies', post)
    expect(added.status).toBe(201)
    expect(added.headers.get('location')).toMatch(/^http:\/\/movies\.home:3000\/movies\//)
    expect((await request('evil.example', '/movies')).status).toBe(421)
    expect((await appAt({ host: '0.0.0.0' })('anything.example', '/movies')).status).toBe(200)
  })
})

describe('Host checks, again (issue 61 item 6)', () => {
  /** The status of a GET with `host` as its Host header, through Node as a server gets it. */
  async function statusFor(config: { host?: string; hosts?: string[] }, hosts: string[]) {
    const server = createServer(toNodeHandler(createApp(createMovieLog(), config)))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const statuses: string[] = []
    for (const host of hosts) {
      const answer = await new Promise<string>((resolve, reject) => {
        const sent = httpRequest({ host: '127.0.0.1', port, path: '/movies', headers: { host } })
        sent.on('response', (response) => {
          response.resume()
          resolve(`${host} ${response.statusCode} ${response.headers['content-type']}`)
        })
        sent.on('error', reject)
        sent.end()
      })
      statuses.push(answer)
    }
    await new Promise((resolve) => server.close(resolve))
    return statuses
  }

  it('a Host no URL can be made of is 400 problem+json, bound to loopback or not', async () => {
    const bad = ['127.0.0.1:99999', 'xn--localhost', 'localhost:99999']
    for (const config of [{}, { host: '0.0.0.0' }]) {
      expect(await statusFor(config, bad)).toEqual(
        bad.map((host) => `${host} 400 application/problem+json`),
      )
    }
  })

  it.each([
    ['*', 'is not a host name: name each host'],
    ['http://movies.home', 'is a URL'],
    ['movies.home nas.local', 'is not one host name: separate host names with commas'],
    ['movies.home;nas.local', 'is not one host name'],
    ['movies.home.', 'ends in a dot'],
    ['[::ffff:127.0.0.1]', "is written '[::ffff:7f00:1]' in requests"],
    ['movies_home!', 'is not a host name or address'],
  ])('refuses the MOVIE_LOG_HOSTS entry %j at start, naming it', (entry, why) => {
    expect(() => configFromEnv({ MOVIE_LOG_HOSTS: `nas.local, ${entry}` })).toThrow(
      `MOVIE_LOG_HOSTS: '${entry}' ${why}`,
    )
  })

  it('takes names, addresses and ports as requests write them', () => {
    const hosts = 'Movies.Home, nas.local:8080, 192.168.1.20, [fd00::1]:3000, my_nas'
    expect(configFromEnv({ MOVIE_LOG_HOSTS: hosts }).hosts).toHaveLength(5)
  })

  it('HOST=[::1] binds ::1, as HOST=::1 does', async () => {
    expect(configFromEnv({ HOST: '[::1]' }).host).toBe('::1')
    const config = configFromEnv({ HOST: '[::1]', PORT: String(await freePort()) })
    const server = await startServer({ ...config, storeUrl: 'memory://' }, () => {})
    try {
      expect(server.url).toMatch(/^http:\/\/\[::1\]:\d+\/movies$/)
      expect((await fetch(server.url)).status).toBe(200)
      const v4 = server.url.replace('[::1]', '127.0.0.1')
      await expect(fetch(v4)).rejects.toThrow()
    } finally {
      await server.close()
    }
  })
})

describe('open streams, bounded per handler (issue 37 item 5)', () => {
  const open = (handler: (request: Request) => Promise<Response>, accept: string) =>
    handler(new Request('http://localhost/movies', { headers: { accept } }))

  it('past maxStreams, feeds and exports answer 503 with Retry-After; a closed one frees its place', async () => {
    const handler = toWebHandler(createMovieLog(), { maxStreams: 3 })
    const feed = await open(handler, 'text/event-stream')
    const csv = await open(handler, 'text/csv')
    const ndjson = await open(handler, 'application/x-ndjson')
    expect([feed.status, csv.status, ndjson.status]).toEqual([200, 200, 200])
    for (const accept of ['text/event-stream', 'text/csv', 'application/x-ndjson']) {
      const refused = await open(handler, accept)
      expect(refused.status, accept).toBe(503)
      expect(refused.headers.get('retry-after')).toBe('5')
      expect(refused.headers.get('content-type')).toBe('application/problem+json')
    }
    // The JSON list is no stream: never refused by the bound.
    expect((await open(handler, 'application/json')).status).toBe(200)
    // A client that goes away (cancel), and an export read to its end, each free a place.
    await feed.body?.cancel()
    expect((await open(handler, 'text/event-stream')).status).toBe(200)
    await csv.text()
    const next = await open(handler, 'text/csv')
    expect(next.status).toBe(200)
  })

  it('a HEAD or a failed start frees its place at once', async () => {
    const log = createMovieLog()
    const handler = toWebHandler(log, { maxStreams: 1 })
    const head = new Request('http://localhost/movies', {
      method: 'HEAD',
      headers: { accept: 'text/csv' },
    })
    expect((await handler(head)).status).toBe(200)
    const bad = new Request('http://localhost/movies?sort=nonsense', {
      headers: { accept: 'text/csv' },
    })
    expect((await handler(bad)).status).toBe(400)
    expect((await open(handler, 'text/csv')).status).toBe(200)
  })

  it('the server takes the bound from MOVIE_LOG_MAX_STREAMS, default 256', () => {
    expect(configFromEnv({}).maxStreams).toBe(256)
    expect(configFromEnv({ MOVIE_LOG_MAX_STREAMS: '1000' }).maxStreams).toBe(1000)
    for (const value of ['0', '-1', 'many', '1.5'])
      expect(() => configFromEnv({ MOVIE_LOG_MAX_STREAMS: value })).toThrow(ConfigError)
  })

  it('an export reads the store only as its client reads: a stalled one holds a page', async () => {
    const log: MovieLog = createMovieLog()
    for (let n = 0; n < 201; n++) await log.addMovie(aMovie({ title: `Movie ${n}` }))
    const listMovies = vi.spyOn(log, 'listMovies')
    const response = await open(toWebHandler(log), 'application/x-ndjson')
    const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>
    await reader.read()
    await new Promise((resolve) => setTimeout(resolve, 50))
    // The first page, read before answering; the second waits for the client.
    expect(listMovies).toHaveBeenCalledTimes(1)
    await reader.read()
    expect(listMovies).toHaveBeenCalledTimes(2)
    await reader.cancel()
  })
})

describe.runIf(platform() === 'linux')(
  'a SQLite folder mkdir cannot make (issue 37 item 9)',
  () => {
    it('refuses at once, naming the path and the cause, where it spun a core forever', async () => {
      const opening = openSqliteDriver('sqlite:///proc/nope/x.sqlite', {
        namespace: 'movie-log',
        connectTimeoutMs: 2000,
      })
      const hung = new Promise((resolve) => setTimeout(resolve, 5000, 'still opening after 5 s'))
      const outcome = await Promise.race([
        opening.then(
          () => 'opened',
          (error: Error) => error,
        ),
        hung,
      ])
      expect(outcome).toBeInstanceOf(Error)
      expect((outcome as Error).message).toBe(
        "cannot create the SQLite file /proc/nope/x.sqlite: ENOENT: no such file or directory, mkdir '/proc/nope'",
      )
      // The file, without the URL's ?client=.
      expect(explainStoreFailure('sqlite:///proc/nope/x.sqlite?client=sqlite3', outcome)).toMatch(
        /^cannot create the SQLite file \/proc\/nope\/x\.sqlite: ENOENT/,
      )
    })
  },
)

describe('the server as `movie-log serve` runs it (items 4 and 5, one process)', () => {
  const { start } = childrenOfEachTest()
  // node:http, since fetch sends the Host of its URL only.
  const get = (url: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: Record<string, unknown>; close(): void }>(
      (resolve, reject) => {
        const sent = httpRequest(url, { headers }, (response) =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            close: () => response.destroy(),
          }),
        )
        sent.on('error', reject).end()
      },
    )

  it('refuses a rebound Host with 421, and a stream past MOVIE_LOG_MAX_STREAMS with 503', async () => {
    const server = await start({ MOVIE_LOG_STORE: 'memory://', MOVIE_LOG_MAX_STREAMS: '1' })
    const { port } = server
    expect((await get(server.url, { host: `evil.example:${port}` })).status).toBe(421)
    const feed = await get(server.url, { accept: 'text/event-stream' })
    expect(feed.status).toBe(200)
    const refused = await get(server.url, { accept: 'text/csv' })
    expect([refused.status, refused.headers['retry-after']]).toEqual([503, '5'])
    refused.close()
    // The client goes away: its place is free again.
    feed.close()
    await expect
      .poll(async () => {
        const next = await get(server.url, { accept: 'text/csv', host: `localhost:${port}` })
        next.close()
        return next.status
      })
      .toBe(200)
  })
})
