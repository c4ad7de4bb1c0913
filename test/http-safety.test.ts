// Issue 37, the HTTP items: CSV rows split by a bare CR or LF, a Last-Event-ID written into the
// stream, forged cursors accepted, and errors that were not problem details. On every adapter.
import { parse } from 'csv-parse/sync'
import { createMovieLog, type Movie } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { letterboxdLines } from '../src/formats/letterboxd'
import { movieCsvLines } from '../src/formats/movie-csv'
import { createApp } from '../src/server/server'
import { expectProblem, JSON_HEADERS, nextLink, servingWith } from './_http-helpers'
import { HTTP_TARGETS, type HttpTargetFactory } from './_http-targets'
import { aMovie } from './_movies'
import { fixture } from './_scrobble'

// A feed that opened would never end: its body is dropped, so the test fails instead of hanging.
async function refusedFeed(response: Response): Promise<Response> {
  if (response.status !== 400) await response.body?.cancel()
  expect(response.status).toBe(400)
  return response
}

const SPLIT_NOTES = 'nice\n=1+1\r-2+3\n@SUM(A1)'
// As a spreadsheet reads CSV: any of CRLF, LF or CR ends a row outside quotes.
const LENIENT = { relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] }
const base64url = (text: string) => Buffer.from(text).toString('base64url')
const FORGED_CURSORS = [
  base64url('movie-log/2:["screenedDate","","","0","x"]'),
  base64url('movie-log/1:anything'),
  base64url('movie-log/2:["added","0000-01-01T00:00:00.000","9999-12-31T23:59:59.999","a b",""]'),
  base64url('movie-log/2:["-screenedDate","2024-02-30T00:00:00.000","","0","x"]'),
]

describe.each(HTTP_TARGETS)('HTTP safety: %s', (_name, createTarget: HttpTargetFactory) => {
  const serve = servingWith(createTarget)

  it('quotes a note with bare CR and LF in CSV: one row, one cell (issue 37, 1)', async () => {
    const { http } = await serve()
    const posted = await http.fetch('/movies', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify(aMovie({ notes: SPLIT_NOTES })),
    })
    expect(posted.status).toBe(201)
    const response = await http.fetch('/movies', { headers: { accept: 'text/csv' } })
    const records = parse(await response.text(), LENIENT) as string[][]
    expect(records).toHaveLength(2)
    expect(records[1]?.[5]).toBe(SPLIT_NOTES)
  })

  it.each([
    [
      'lastEventId',
      `/movies?lastEventId=${encodeURIComponent('1\r\nevent: added\ndata: {"evil":1}')}`,
    ],
    ['lastEventId', '/movies?lastEventId=not-an-id'],
  ])(
    'refuses a %s that is no event id with 400, never echoed (issue 37, 6)',
    async (name, path) => {
      const { http } = await serve()
      const response = await refusedFeed(
        await http.fetch(path, { headers: { accept: 'text/event-stream' } }),
      )
      const problem = await expectProblem(response, 400)
      expect(problem.errors).toEqual([{ parameter: name, detail: expect.any(String) }])
      expect(JSON.stringify(problem)).not.toContain('evil')
    },
  )

  it('refuses a Last-Event-ID header that is no event id with 400 (issue 37, 6)', async () => {
    const { http } = await serve()
    const response = await refusedFeed(
      await http.fetch('/movies', {
        headers: { accept: 'text/event-stream', 'last-event-id': 'event: added' },
      }),
    )
    const problem = await expectProblem(response, 400)
    expect(problem.errors).toEqual([{ parameter: 'Last-Event-ID', detail: expect.any(String) }])
    // Issue 55 item 10: the detail said "The paging parameters are not valid".
    expect(problem.detail).toBe('The Last-Event-ID header is not valid; see errors.')
  })

  it('refuses a well-formed Last-Event-ID later than any the feed issued, never echoed (issue 61)', async () => {
    const { log, http } = await serve()
    await log.addMovie(aMovie())
    for (const [name, init] of [
      ['Last-Event-ID', { headers: { 'last-event-id': '99999999999999999999' } }],
      ['lastEventId', { query: '?lastEventId=12345678901234567890' }],
    ] as const) {
      const query = 'query' in init ? init.query : ''
      const headers = { accept: 'text/event-stream', ...('headers' in init ? init.headers : {}) }
      const response = await refusedFeed(await http.fetch(`/movies${query}`, { headers }))
      const problem = await expectProblem(response, 400)
      expect(problem.errors).toEqual([{ parameter: name, detail: expect.any(String) }])
      expect(JSON.stringify(problem)).not.toMatch(/99999999999999999999|12345678901234567890/)
    }
  })

  it.each(FORGED_CURSORS)('refuses the forged cursor %s with 400 (issue 37, 7)', async (cursor) => {
    const { log, http } = await serve()
    await log.addMovie(aMovie())
    const response = await http.fetch(`/movies?limit=1&cursor=${cursor}`)
    const problem = await expectProblem(response, 400)
    expect(problem.errors).toEqual([{ parameter: 'cursor', detail: expect.any(String) }])
  })

  // Issue 55 item 9: only malformed cursors were tried; a well-formed one edited was accepted.
  it('refuses a cursor of its own edited to resume after another movie, with 400', async () => {
    const { log, http } = await serve()
    const movies = [await log.addMovie(aMovie()), await log.addMovie(aMovie())]
    await log.addMovie(aMovie())
    const first = await http.fetch('/movies?limit=1')
    const cursor = new URL(String(nextLink(first, http.origin)), http.origin).searchParams.get(
      'cursor',
    ) as string
    const [payload = '', ...signature] = cursor.split('.')
    const fields = Buffer.from(payload, 'base64url').toString()
    const moved = fields.replace(String(movies[0]?.id), String(movies[1]?.id))
    expect(moved).not.toBe(fields)
    const edited = [Buffer.from(moved).toString('base64url'), ...signature].join('.')
    const response = await http.fetch(`/movies?limit=1&cursor=${edited}`)
    const problem = await expectProblem(response, 400)
    expect(problem.errors).toEqual([{ parameter: 'cursor', detail: expect.any(String) }])
  })

  it('answers a body that is not JSON without quoting it (issue 37, 8)', async () => {
    const { http } = await serve()
    const response = await http.fetch('/movies', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: '{"secret-of-the-body',
    })
    const problem = await expectProblem(response, 400)
    expect(JSON.stringify(problem)).not.toMatch(/secret|position/)
  })

  it('answers an unknown route with problem details (issue 37, 8)', async () => {
    const { http } = await serve()
    await expectProblem(await http.fetch('/movies/a/b'), 404)
  })
})

describe('CSV of the command (issue 37, 1)', () => {
  const movie = { ...aMovie({ notes: SPLIT_NOTES }), id: 'x' } as Movie

  it.each([
    ['csv', movieCsvLines, 5],
    ['letterboxd', letterboxdLines, 6],
  ] as const)('keeps a multi-line note in one cell of %s', (_, lines, column) => {
    const records = parse(lines([movie]), LENIENT) as string[][]
    expect(records).toHaveLength(1)
    expect(records[0]?.[column]).toBe(SPLIT_NOTES)
  })

  it('guards every cell, the id too', () => {
    const records = parse(movieCsvLines([{ ...movie, id: '=cmd' }])) as string[][]
    expect(records[0]?.[0]).toBe("'=cmd")
  })
})

describe("the server's router (issue 37, 8)", () => {
  // A host it answers (MOVIE_LOG_HOSTS), so its name reaches the router: it must not be echoed.
  const app = createApp(createMovieLog(), { hosts: ['attacker.example'] })
  const send = (path: string, init?: RequestInit) =>
    app.fetch(new Request(`http://attacker.example${path}`, init))

  it.each([['/movies/%zz'], ['/%zz'], ['/nope'], ['/movies/a/b']])(
    'answers %s with problem details, no URL from the Host header',
    async (path) => {
      const response = await send(path)
      const problem = await expectProblem(response, response.status)
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(JSON.stringify(problem)).not.toContain('attacker')
    },
  )

  // The site read Accept by its own rules: any text/html above q=0 won, even below JSON.
  it('gives JSON callers the pointer at / when they rank JSON above HTML', async () => {
    const response = await send('/', { headers: { accept: 'text/html;q=0.5, application/json' } })
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  })

  it('answers POST / with 405 and Allow', async () => {
    const response = await send('/', { method: 'POST' })
    await expectProblem(response, 405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
  })
})

describe('/movies/%zz on the h3 adapter alone (issue 37, 8)', () => {
  it('is problem details', async () => {
    const { toH3Handler } = await import('movie-log/h3')
    const app = toH3Handler(createMovieLog())
    const response = await app.fetch(new Request('http://attacker.example/%zz'))
    const problem = await expectProblem(response, 400)
    expect(JSON.stringify(problem)).not.toContain('attacker')
  })
})

describe('Accept, negotiated once', () => {
  const handle = toWebHandler(createMovieLog())
  it.each([
    ['application/json, text/csv', 'application/json'],
    ['application/json; charset=utf-8', 'application/json'],
    ['text/csv;q=0.9, */*', 'application/json'],
    ['text/html;q=0.9, text/csv', 'text/csv; charset=utf-8; header=present'],
  ])('negotiates %s as %s', async (accept, type) => {
    const response = await handle(
      new Request('http://movie-log.test/movies', { headers: { accept } }),
    )
    expect(response.headers.get('content-type')).toBe(type)
    await response.arrayBuffer()
  })
})

// Issue 61 item 1: a browser's form post or no-cors fetch needs no preflight, so CORS never saw
// it; what the browser adds to it is read instead. As Chromium sends them (see
// test/browser/cross-site.test.ts for the real thing).
describe.each(HTTP_TARGETS)('writes a browser sends from another origin: %s', (_name, create) => {
  const serve = servingWith(create)
  const FRIEND = 'https://friend.example'
  const FROM = {
    'another site': { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
    'another port of this site': { origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-site' },
    'a page of no origin': { origin: 'null', 'sec-fetch-site': 'cross-site' },
    'an old browser': { origin: 'http://evil.example' },
    'a cross-site request without Origin': { 'sec-fetch-site': 'cross-site' },
  }

  it.each(Object.entries(FROM))('refuses every write from %s with 403', async (_from, sent) => {
    const { log, http } = await serve(createMovieLog(), { cors: [FRIEND] })
    const kept = await log.addMovie(aMovie({ title: 'Kept' }))
    const writes = [
      http.fetch('/movies', {
        method: 'POST',
        headers: { ...JSON_HEADERS, ...sent },
        body: JSON.stringify(aMovie()),
      }),
      http.fetch(`/movies/${kept.id}`, {
        method: 'PATCH',
        headers: { ...JSON_HEADERS, ...sent },
        body: '{"title":"Changed"}',
      }),
      http.fetch(`/movies/${kept.id}`, { method: 'DELETE', headers: sent }),
      http.fetch('/movies/scrobble/jellyfin', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...sent },
        body: JSON.stringify(fixture('jellyfin-movie-stop')),
      }),
    ]
    for (const response of await Promise.all(writes)) {
      expect((await expectProblem(response, 403)).detail).toMatch(/^Writes from .+ are refused/)
    }
    expect((await log.listMovies()).movies).toEqual([kept])
  })

  it('takes writes from programs, from this origin and from an origin CORS allows', async () => {
    const { log, http } = await serve(createMovieLog(), { cors: [FRIEND] })
    const add = (headers: Record<string, string>) =>
      http.fetch('/movies', {
        method: 'POST',
        headers: { ...JSON_HEADERS, ...headers },
        body: JSON.stringify(aMovie()),
      })
    expect((await add({})).status).toBe(201)
    expect(
      (
        await add({
          origin: http.origin,
          'sec-fetch-site': 'same-origin',
          'sec-fetch-mode': 'cors',
        })
      ).status,
    ).toBe(201)
    expect(
      (await add({ 'sec-fetch-site': 'same-origin', origin: 'https://public.example' })).status,
    ).toBe(201)
    expect(
      (await add({ origin: FRIEND, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' }))
        .status,
    ).toBe(201)
    // Its own page behind a proxy that ends TLS, in a browser that sends no Sec-Fetch-Site.
    const host = new URL(http.origin).host
    expect((await add({ origin: `https://${host}` })).status).toBe(201)
    expect((await add({ origin: `https://evil.${host.split(':')[0]}.example` })).status).toBe(403)
    const scrobbled = await http.fetch('/movies/scrobble/jellyfin', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify(fixture('jellyfin-movie-stop')),
    })
    expect(scrobbled.status).toBe(201)
    expect((await log.listMovies()).movies).toHaveLength(6)
  })
})

describe("a form post or no-cors fetch of the handler's own origin (issue 61, 1)", () => {
  // Node's fetch sends Sec-Fetch-Mode: cors whatever it is given, so these go to the web handler.
  it.each([
    ['a form', 'navigate'],
    ['a no-cors fetch', 'no-cors'],
  ])('refuses %s with 403', async (_what, mode) => {
    const log = createMovieLog()
    const handler = toWebHandler(log)
    const response = await handler(
      new Request('http://127.0.0.1/movies/scrobble/jellyfin', {
        method: 'POST',
        headers: {
          'content-type': 'text/plain',
          origin: 'http://127.0.0.1',
          'sec-fetch-site': 'same-origin',
          'sec-fetch-mode': mode,
        },
        body: JSON.stringify(fixture('jellyfin-movie-stop')),
      }),
    )
    expect((await expectProblem(response, 403)).detail).toMatch(/^Writes from a browser's/)
    expect((await log.listMovies()).movies).toEqual([])
  })
})
