import { H3 } from 'h3'
import { createMovieLog } from 'movie-log'
import { toH3Handler } from 'movie-log/h3'
import { toWebHandler } from 'movie-log/web'
import { expect, it } from 'vitest'
import { aMovie } from './_movies'

// Both logs make the same ids, so every answer can be compared to the byte.
function sameIds() {
  let n = 0
  return () => `00000000-0000-7000-8000-${String(++n).padStart(12, '0')}`
}

// Each log signs its cursors with a key of its own store: the signatures alone may differ.
const headersOf = (response: Response) =>
  [...response.headers].map(([name, value]) => [
    name,
    value.replace(/(cursor=[\w-]+)\.[\w-]+/g, '$1.<signature>'),
  ])

const requests: [string, RequestInit?][] = [
  [
    '/movies',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(aMovie()),
    },
  ],
  [
    '/movies',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(aMovie({ title: 'B' })),
    },
  ],
  ['/movies'],
  ['/movies?limit=1'],
  ['/movies/00000000-0000-7000-8000-000000000001'],
  ['/movies/00000000-0000-7000-8000-000000000009'],
  ['/movies', { method: 'HEAD' }],
  ['/movies', { method: 'DELETE' }],
  ['/movies', { headers: { accept: 'text/html' } }],
  ['/movies', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }],
  [
    '/movies',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":1}' },
  ],
  ['/movies?limit=0'],
]

it('the h3 handler answers byte-for-byte like the web handler', async () => {
  const web = toWebHandler(createMovieLog(undefined, { generateId: sameIds() }))
  const app = new H3({ silent: true }).mount(
    '/movies',
    toH3Handler(createMovieLog(undefined, { generateId: sameIds() })),
  )
  for (const [path, init] of requests) {
    const [fromWeb, fromH3] = [
      await web(new Request(`http://movie-log.test${path}`, init)),
      await app.fetch(new Request(`http://movie-log.test${path}`, init)),
    ]
    const label = `${init?.method ?? 'GET'} ${path}`
    expect(fromH3.status, label).toBe(fromWeb.status)
    expect(headersOf(fromH3), label).toEqual(headersOf(fromWeb))
    expect(await fromH3.text(), label).toBe(await fromWeb.text())
  }
})

it('the h3 app answers wherever it is mounted, nested apps included', async () => {
  const options = { basePath: '/api/movies' }
  const apps = {
    mounted: new H3({ silent: true }).mount('/api/movies', toH3Handler(createMovieLog(), options)),
    nested: new H3({ silent: true }).mount(
      '/api',
      new H3().mount('/movies', toH3Handler(createMovieLog(), options)),
    ),
  }
  for (const [label, app] of Object.entries(apps)) {
    const added = await app.fetch(
      new Request('http://movie-log.test/api/movies', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(aMovie()),
      }),
    )
    expect(added.status, label).toBe(201)
    const location = added.headers.get('location') as string
    expect(location, label).toMatch(/^http:\/\/movie-log\.test\/api\/movies\/[0-9a-f-]{36}$/)
    const read = await app.fetch(new Request(location))
    expect(read.status, label).toBe(200)
    expect(await read.json(), label).toEqual(await added.json())
    const list = await app.fetch(new Request('http://movie-log.test/api/movies/'))
    expect((await list.json()).length, label).toBe(1)
    expect((await app.fetch(new Request('http://movie-log.test/movies'))).status, label).toBe(404)
    expect((await app.fetch(new Request(`${location}/extra`))).status, label).toBe(404)
  }
})

it('mounted in h3 away from basePath, the log still sees the path below its mount', async () => {
  const log = createMovieLog()
  const movie = await log.addMovie(aMovie())
  const app = new H3({ silent: true }).mount('/catalog', toH3Handler(log))
  const list = await app.fetch(new Request('http://movie-log.test/catalog'))
  expect(await list.json()).toEqual([movie])
  const read = await app.fetch(new Request(`http://movie-log.test/catalog/${movie.id}`))
  expect(await read.json()).toEqual(movie)
})

it('Location and Link both follow basePath, not the path the host passed', async () => {
  const log = createMovieLog()
  for (const title of ['A', 'B']) await log.addMovie(aMovie({ title }))
  const app = new H3({ silent: true }).mount('/catalog', toH3Handler(log, { basePath: '/' }))
  const page = await app.fetch(new Request('http://movie-log.test/catalog?limit=1'))
  expect(page.headers.get('link')).toMatch(
    /^<http:\/\/movie-log\.test\/\?limit=1&cursor=[^>]+>; rel="next"$/,
  )
  const added = await app.fetch(
    new Request('http://movie-log.test/catalog', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(aMovie()),
    }),
  )
  expect(added.headers.get('location')).toMatch(/^http:\/\/movie-log\.test\/[0-9a-f-]{36}$/)
})

it('keeps the headers a host h3 app sets around the mounted log', async () => {
  const app = new H3()
    .use((event) => {
      event.res.headers.set('x-served-by', 'host')
    })
    .use(async (_event, next) => {
      const response = (await next()) as { headers: Headers }
      response.headers.set('x-request-id', '7')
      return response
    })
    .mount('/movies', toH3Handler(createMovieLog()))
  const response = await app.fetch(
    new Request('http://movie-log.test/movies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(aMovie()),
    }),
  )
  expect(response.status).toBe(201)
  expect(response.headers.get('x-served-by')).toBe('host')
  expect(response.headers.get('x-request-id')).toBe('7')
  expect(response.headers.get('content-type')).toBe('application/json')
  expect(response.headers.get('location')).toMatch(
    /^http:\/\/movie-log\.test\/movies\/[0-9a-f-]{36}$/,
  )
})

it.each([
  ['a 415', 'text/plain', 415],
  ['a 400', 'application/json', 400],
])('keeps the headers a host h3 app sets on event.res on %s', async (_, type, status) => {
  const app = new H3()
    .use((event) => {
      event.res.headers.set('x-served-by', 'host')
    })
    .mount('/movies', toH3Handler(createMovieLog()))
  const response = await app.fetch(
    new Request('http://movie-log.test/movies', {
      method: 'POST',
      headers: { 'content-type': type },
      body: '{"title":""}',
    }),
  )
  expect(response.status).toBe(status)
  expect(response.headers.get('x-served-by')).toBe('host')
  expect(response.headers.get('content-type')).toBe('application/problem+json')
})

it.each([
  ['a space', '/my movies', '/my%20movies'],
  ['a non-ASCII letter', '/filmtagebücher', '/filmtageb%C3%BCcher'],
  ['a doubled slash', '//movies', '//movies'],
])(
  'answers under a basePath with %s, which hosts send percent-encoded',
  async (_, basePath, sent) => {
    const handle = toWebHandler(createMovieLog(), { basePath })
    const added = await handle(
      new Request(`http://movie-log.test${sent}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(aMovie()),
      }),
    )
    expect(added.status).toBe(201)
    const location = added.headers.get('location') as string
    expect(location).toMatch(new RegExp(`^http://movie-log\\.test${sent}/[0-9a-f-]{36}$`))
    const read = await handle(new Request(location))
    expect(read.status).toBe(200)
    expect(await read.json()).toEqual(await added.json())
  },
)

it('answers 400, not a server error, to a body that breaks off, and stores nothing', async () => {
  const log = createMovieLog()
  const errors: unknown[] = []
  const handle = toWebHandler(log, { onError: (error) => errors.push(error) })
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"title":'))
      // As runtimes report a broken connection: by its code (a plain Error is not the client's).
      controller.error(Object.assign(new Error('connection reset'), { code: 'ECONNRESET' }))
    },
  })
  const response = await handle(
    new Request('http://movie-log.test/movies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit),
  )
  expect(response.status).toBe(400)
  expect((await response.json()).detail).toMatch(/could not be read/)
  expect(errors).toEqual([])
  expect((await log.listMovies()).movies).toEqual([])
})
