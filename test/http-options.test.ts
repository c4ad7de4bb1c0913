import { createMovieLog, type MovieLog } from 'movie-log'
import { toH3Handler } from 'movie-log/h3'
import { type MovieLogHttpOptions, toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { aMovie } from './_movies'

const adapters = [
  ['toWebHandler', toWebHandler],
  ['toH3Handler', toH3Handler],
] as const

describe.each(adapters)('%s refuses options it could only misread', (_, adapter) => {
  it.each([
    [
      'a query',
      { basePath: '/movies?all=1' },
      /options\.basePath must be a path, without '\?' or '#'/,
    ],
    ['a fragment', { basePath: '/movies#list' }, /options\.basePath must be a path/],
    ['a basePath that is not text', { basePath: 42 as unknown as string }, /options\.basePath/],
    [
      'a maxBodyBytes of 0',
      { maxBodyBytes: 0 },
      /options\.maxBodyBytes must be a positive integer, not 0/,
    ],
    [
      'a maxImportBytes of 0.5',
      { maxImportBytes: 0.5 },
      /options\.maxImportBytes must be a positive integer, not 0\.5/,
    ],
    [
      'a negative maxPageSize',
      { maxPageSize: -1 },
      /options\.maxPageSize must be a positive integer, not -1/,
    ],
    [
      'a fractional maxPageSize',
      { maxPageSize: 1.5 },
      /options\.maxPageSize must be a positive integer/,
    ],
    [
      'a maxConcurrentAdds of NaN',
      { maxConcurrentAdds: Number.NaN },
      /options\.maxConcurrentAdds must be a positive integer, not NaN/,
    ],
    [
      'a maxBodyBytes given as text',
      { maxBodyBytes: '1024' as unknown as number },
      /options\.maxBodyBytes/,
    ],
  ])('with %s', (_, options: MovieLogHttpOptions, message) => {
    expect(() => adapter(createMovieLog(), options)).toThrow(TypeError)
    expect(() => adapter(createMovieLog(), options)).toThrow(message)
  })

  it('takes every option at its smallest sensible value', () => {
    const options = { basePath: '/', maxBodyBytes: 1, maxPageSize: 1, maxConcurrentAdds: 1 }
    expect(() => adapter(createMovieLog(), options)).not.toThrow()
  })
})

// Each option seen through requests, not only accepted: a handler that took an option and
// ignored it passed the checks above.
const handlers = [
  ['toWebHandler', (log: MovieLog, options: MovieLogHttpOptions) => toWebHandler(log, options)],
  [
    'toH3Handler',
    (log: MovieLog, options: MovieLogHttpOptions) => {
      const app = toH3Handler(log, options)
      return async (request: Request) => app.fetch(request)
    },
  ],
] as const

const ORIGIN = 'http://movie-log.test'
const post = (path: string, body: BodyInit) =>
  new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  })

describe.each(handlers)('%s applies each option to the requests it answers', (_, handlerOf) => {
  it('basePath: the log answers there, and only there', async () => {
    const handle = handlerOf(createMovieLog(), { basePath: '/diary' })
    const added = await handle(post('/diary', JSON.stringify(aMovie())))
    expect(added.status).toBe(201)
    expect(added.headers.get('location')).toMatch(
      /^http:\/\/movie-log\.test\/diary\/[0-9a-f-]{36}$/,
    )
    expect((await handle(new Request(added.headers.get('location') as string))).status).toBe(200)
    expect((await handle(new Request(`${ORIGIN}/movies`))).status).toBe(404)
  })

  // Issue 55 item 10: a handler mounted at /api/movies without basePath said a bare "Not found.".
  it('basePath: a path outside it is a 404 whose detail names basePath', async () => {
    const handle = handlerOf(createMovieLog(), {})
    for (const path of ['/api/movies', '/api/movies/', '/api/movies/some-id']) {
      const response = await handle(new Request(`${ORIGIN}${path}`))
      expect(response.status, path).toBe(404)
      expect((await response.json()).detail, path).toMatch(/answers at \/movies .*basePath/)
    }
    const below = await handle(new Request(`${ORIGIN}/movies/a/b`))
    expect(below.status).toBe(404)
    expect((await below.json()).detail).toBe('Not found.')
  })

  it('maxBodyBytes: a body past it is a 413, one within it is added', async () => {
    const body = JSON.stringify(aMovie())
    const bytes = new TextEncoder().encode(body).length
    const fits = handlerOf(createMovieLog(), { maxBodyBytes: bytes })
    expect((await fits(post('/movies', body))).status).toBe(201)
    const tooBig = handlerOf(createMovieLog(), { maxBodyBytes: bytes - 1 })
    expect((await tooBig(post('/movies', body))).status).toBe(413)
  })

  it('maxPageSize: a page holds no more, whatever limit is asked', async () => {
    // (With no limit and no cursor the whole log is streamed: that is not a page.)
    const log = createMovieLog()
    for (let n = 0; n < 3; n++) await log.addMovie(aMovie({ title: `Film ${n}` }))
    const handle = handlerOf(log, { maxPageSize: 2 })
    for (const query of ['?limit=3', '?limit=1000', '?limit=2']) {
      const page = await handle(new Request(`${ORIGIN}/movies${query}`))
      expect(page.status, query).toBe(200)
      expect(await page.json(), query).toHaveLength(2)
      expect(page.headers.get('link'), query).toContain('limit=2&')
    }
    expect(await (await handle(new Request(`${ORIGIN}/movies?limit=1`))).json()).toHaveLength(1)
  })

  it('maxConcurrentAdds: past it, an add is a 503 with Retry-After until one ends', async () => {
    const handle = handlerOf(createMovieLog(), { maxConcurrentAdds: 1 })
    // The first add is in flight while its body is still coming.
    let send: ReadableStreamDefaultController<Uint8Array> | undefined
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        send = controller
      },
    })
    const first = handle(post('/movies', body))
    const refused = await handle(post('/movies', JSON.stringify(aMovie())))
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('1')
    send?.enqueue(new TextEncoder().encode(JSON.stringify(aMovie())))
    send?.close()
    expect((await first).status).toBe(201)
    expect((await handle(post('/movies', JSON.stringify(aMovie())))).status).toBe(201)
  })
})
