/**
 * The HTTP contract, one suite for every way of serving the log: the adapters in this process
 * (http.test.ts) and the handler served by Bun, Deno and workerd (test/ci/runtime-*.test.ts).
 * A served log in another runtime is reached through the target's `log` (the client), each test
 * on a fresh diary of its own there. What needs this process's hands on the handler (a store
 * made to fail, a broken log, options that are functions) runs in-process only: `inProcess`.
 */
import { randomUUID } from 'node:crypto'
import { createMovieLog, type Movie, type MovieLog } from 'movie-log'
import type { MovieLogHttpOptions } from 'movie-log/web'
import { afterEach, describe, expect, it } from 'vitest'
import { FlakyMap, flakyScanStore } from './_flaky-map'
import { expectProblem } from './_http-helpers'
import type { HttpTarget, HttpTargetFactory } from './_http-targets'
import { aMovie } from './_movies'

const JSON_HEADERS = { 'content-type': 'application/json' }
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'

/** Where the handler runs: in this process, or served by another runtime (`remote`). */
export type Where = 'in-process' | 'remote'

/** What a runtime's server does to a response that the handler cannot change. */
export interface RuntimeLimits {
  /** The runtime owns its connections and drops a `Connection` header (workerd). */
  dropsConnectionHeader?: boolean
}

export function httpContract(
  name: string,
  createTarget: HttpTargetFactory,
  where: Where = 'in-process',
  limits: RuntimeLimits = {},
) {
  /** A client's upload cut short by the server's early answer, where that may happen. */
  const expectUploadReset = (error: unknown, mayHappen: boolean) => {
    expect(mayHappen, String(error)).toBe(true)
    expect((error as Error).cause).toMatchObject({
      code: expect.stringMatching(/^(EPIPE|ECONNRESET)$/),
    })
  }
  /** A case that needs the handler in this process; not registered for a remote target. */
  const inProcess = (title: string, body: () => Promise<void>) => {
    if (where === 'in-process') it(title, body)
  }
  let target: HttpTarget | undefined
  afterEach(() => target?.close())

  async function serve(log: MovieLog = createMovieLog(), options?: MovieLogHttpOptions) {
    target = await createTarget(log, options)
    // A remote target serves a log of its own: the test reaches it through the client.
    return { log: target.log ?? log, http: target }
  }

  const post = (http: HttpTarget, body: unknown, headers: Record<string, string> = JSON_HEADERS) =>
    http.fetch('/movies', {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })

  describe('GET /movies', () => {
    it.each([
      ['application/json'],
      ['*/*'],
      ['application/*'],
      [BROWSER_ACCEPT],
      ['text/html, application/json;q=0.5'],
      [undefined],
    ])('answers Accept %s with a JSON array, oldest added first', async (accept) => {
      const { log, http } = await serve()
      const first = await log.addMovie(aMovie({ title: 'First' }))
      const second = await log.addMovie(aMovie({ title: 'Second' }))

      const response = await http.fetch('/movies', accept ? { headers: { accept } } : {})
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/json')
      expect(await response.json()).toEqual([first, second])
    })

    it.each([['text/html'], ['application/json;q=0, */*'], ['image/png, text/*']])(
      'refuses Accept %s with 406',
      async (accept) => {
        const { http } = await serve()
        const problem = await expectProblem(
          await http.fetch('/movies', { headers: { accept } }),
          406,
        )
        expect(problem.detail).toBe(
          'This resource is only available as application/json, application/x-ndjson, text/csv or text/event-stream.',
        )
      },
    )

    it('answers HEAD like GET, without a body', async () => {
      const { log, http } = await serve()
      await log.addMovie(aMovie())
      const [get, head] = [
        await http.fetch('/movies'),
        await http.fetch('/movies', { method: 'HEAD' }),
      ]
      expect(head.status).toBe(200)
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'))
      expect(await head.text()).toBe('')
      expect((await get.json()).length).toBe(1)
    })
  })

  describe('the full list', () => {
    it('streams a log longer than one page as one JSON array, oldest first', async () => {
      const { log, http } = await serve()
      const added: string[] = []
      // Past two pages of the stream (STREAM_PAGE_SIZE, 1000), 50 at a time: a remote target's
      // log is the client, one request per add. Ids sort in the order the log added them.
      for (let n = 0; n < 2050; n += 50) {
        const batch = Array.from({ length: 50 }, (_, k) => aMovie({ title: `M${n + k}` }))
        added.push(
          ...(await Promise.all(batch.map((movie) => log.addMovie(movie)))).map((m) => m.id),
        )
      }
      added.sort()
      const response = await http.fetch('/movies')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/json')
      expect(((await response.json()) as Movie[]).map((movie) => movie.id)).toEqual(added)
      const head = await http.fetch('/movies', { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(await head.text()).toBe('')
      // A hang guard: on D1 through Miniflare, 2,050 adds over HTTP take tens of seconds.
    }, 120_000)

    inProcess('breaks the body, not the JSON, when the store fails mid-list', async () => {
      const store = flakyScanStore()
      const { log, http } = await serve(createMovieLog(store.keyv))
      for (let n = 0; n < 3500; n++) await log.addMovie(aMovie({ title: `M${n}` }))
      // The first page (a scan of all 3500 movies) is read; the store fails during the second.
      store.failAfter(5000)
      // A real server may cut the connection before the client has even seen the headers (a
      // network error, and only over a socket); a response that does arrive is the 200 of the
      // first page, with a body that breaks.
      const response = await http.fetch('/movies').catch((error: unknown) => error)
      if (response instanceof Response) {
        expect(response.status).toBe(200)
        await expect(response.text()).rejects.toThrow()
      } else {
        expect(['listening server', 'node handler']).toContain(name)
        expect(response).toMatchObject({ name: 'TypeError', message: 'fetch failed' })
      }
    })
  })

  describe('paging', () => {
    it('walks pages through the Link header, each movie once, in order', async () => {
      const { log, http } = await serve()
      const added: Movie[] = []
      for (let n = 0; n < 7; n++) added.push(await log.addMovie(aMovie({ title: `M${n}` })))

      const seen: Movie[] = []
      let next: string | undefined = `${http.origin}/movies?limit=3`
      let pages = 0
      while (next) {
        expect(next.startsWith(`${http.origin}/movies?`)).toBe(true)
        const response = await http.fetch(next.slice(http.origin.length))
        expect(response.status).toBe(200)
        const page = (await response.json()) as Movie[]
        expect(page.length).toBeLessThanOrEqual(3)
        seen.push(...page)
        pages++
        next = /^<([^>]+)>; rel="next"$/.exec(response.headers.get('link') ?? '')?.[1]
      }
      expect(pages).toBe(3)
      expect(seen).toEqual(added)
    })

    it('gives no duplicates while movies are being added during the walk', async () => {
      const { log, http } = await serve()
      for (let n = 0; n < 10; n++) await log.addMovie(aMovie({ title: `Before ${n}` }))
      const seen: string[] = []
      let next: string | undefined = '/movies?limit=4'
      while (next) {
        const [response]: [Response, Response] = await Promise.all([
          http.fetch(next),
          post(http, aMovie({ title: `During ${seen.length}` })),
        ])
        seen.push(...((await response.json()) as Movie[]).map((movie) => movie.id))
        const link: string | undefined = /^<([^>]+)>/.exec(response.headers.get('link') ?? '')?.[1]
        next = link?.slice(http.origin.length)
      }
      expect(new Set(seen).size).toBe(seen.length)
      expect(seen.length).toBeGreaterThanOrEqual(10)
    })

    it('lowers a limit above the maximum to the maximum', async () => {
      const { log, http } = await serve(createMovieLog(), { maxPageSize: 2 })
      for (let n = 0; n < 5; n++) await log.addMovie(aMovie())
      const response = await http.fetch('/movies?limit=50')
      expect(await response.json()).toHaveLength(2)
      expect(response.headers.get('link')).toContain('limit=2')
    })

    it('has no Link header on the last page', async () => {
      const { log, http } = await serve()
      await log.addMovie(aMovie())
      const response = await http.fetch('/movies?limit=5')
      expect(await response.json()).toHaveLength(1)
      expect(response.headers.get('link')).toBeNull()
    })

    it.each([['0'], ['-1'], ['abc'], ['1.5'], [''], ['99999999999999999999']])(
      'refuses limit=%s with 400',
      async (limit) => {
        const { http } = await serve()
        const problem = await expectProblem(await http.fetch(`/movies?limit=${limit}`), 400)
        expect(problem.errors).toEqual([{ parameter: 'limit', detail: expect.any(String) }])
      },
    )

    it.each([['nope'], ['bW92aWUtbG9nLzE6'], ['%00']])(
      'refuses cursor=%s with 400',
      async (cursor) => {
        const { http } = await serve()
        const problem = await expectProblem(
          await http.fetch(`/movies?limit=2&cursor=${cursor}`),
          400,
        )
        expect(problem.errors).toEqual([{ parameter: 'cursor', detail: expect.any(String) }])
      },
    )
  })

  describe('POST /movies', () => {
    it.each([
      ['application/json'],
      ['application/json; charset=utf-8'],
      ['Application/JSON;charset="UTF-8"'],
    ])('stores a movie sent as %s: 201, the movie, and its Location', async (contentType) => {
      const { log, http } = await serve()
      const response = await post(http, aMovie({ title: ' Heat ' }), {
        'content-type': contentType,
      })
      expect(response.status).toBe(201)
      expect(response.statusText).toBe('Created')
      expect(response.headers.get('content-type')).toBe('application/json')
      const movie = (await response.json()) as Movie
      expect(movie).toMatchObject({ title: 'Heat', releaseYear: 1995, id: expect.any(String) })
      expect(response.headers.get('location')).toBe(`${http.origin}/movies/${movie.id}`)

      const fetched = await http.fetch(new URL(response.headers.get('location')!).pathname)
      expect(fetched.status).toBe(200)
      expect(await fetched.json()).toEqual(movie)
      expect((await log.listMovies()).movies).toEqual([movie])
    })

    it.each([
      ['text/plain'],
      ['application/x-www-form-urlencoded'],
      ['application/json; charset=latin1'],
      ['application/jsonx'],
      [undefined],
    ])('refuses content type %s with 415 and stores nothing', async (contentType) => {
      const { log, http } = await serve()
      const headers: Record<string, string> = contentType ? { 'content-type': contentType } : {}
      const response = await post(http, aMovie(), headers)
      expect(response.headers.get('accept-post')).toBe('application/json')
      await expectProblem(response, 415)
      expect((await log.listMovies()).movies).toEqual([])
    })

    it.each([
      ['not JSON', '{"title": '],
      ['empty', ''],
      ['an array', '[]'],
      ['a string', '"Heat"'],
      ['null', 'null'],
    ])('refuses a body that is %s with 400', async (_what, body) => {
      const { log, http } = await serve()
      await expectProblem(await post(http, body), 400)
      expect((await log.listMovies()).movies).toEqual([])
    })

    it('refuses invalid UTF-8 with 400', async () => {
      const { http } = await serve()
      const bytes = new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])
      await expectProblem(
        await http.fetch('/movies', { method: 'POST', headers: JSON_HEADERS, body: bytes }),
        400,
      )
    })

    it('answers field problems with 400 and one errors entry per field', async () => {
      const { log, http } = await serve()
      const input = aMovie({
        title: '',
        releaseYear: '1995',
        screenedDate: '2024-05-01T20:30:00.000Z',
      })
      const problem = await expectProblem(await post(http, input), 400)
      expect(problem.type).toBe('urn:movie-log:problem:invalid-movie')
      expect(problem.errors.map((error: { pointer: string }) => error.pointer).sort()).toEqual([
        '/releaseYear',
        '/screenedDate',
        '/title',
      ])
      const offset = problem.errors.find((e: { pointer: string }) => e.pointer === '/screenedDate')
      expect(offset.detail).toMatch(/local time/)
      expect((await log.listMovies()).movies).toEqual([])
    })

    it('refuses what a hostile client sends for a page to show: controls, overrides, foreign links', async () => {
      const { log, http } = await serve()
      const input = aMovie({
        title: 'a\u0000b',
        notes: '\u202egnp.exe',
        imdbLink: 'https://user:pw@evil.example/',
      })
      const problem = await expectProblem(await post(http, input), 400)
      expect(problem.errors).toEqual([
        { pointer: '/title', detail: expect.stringContaining('control characters') },
        { pointer: '/imdbLink', detail: expect.stringContaining('user name or password') },
        { pointer: '/notes', detail: expect.stringContaining('bidirectional') },
      ])
      const foreign = await expectProblem(
        await post(http, aMovie({ title: '\u202egnp.exe', imdbLink: 'https://evil.example/' })),
        400,
      )
      expect(foreign.errors.map((error: { pointer: string }) => error.pointer)).toEqual([
        '/title',
        '/imdbLink',
      ])
      expect((await log.listMovies()).movies).toEqual([])
    })

    it('refuses __proto__ without polluting anything', async () => {
      const { log, http } = await serve()
      const body = JSON.stringify(aMovie()).replace(/}$/, ',"__proto__":{"polluted":true}}')
      const problem = await expectProblem(await post(http, body), 400)
      expect(problem.errors).toEqual([{ pointer: '/__proto__', detail: expect.any(String) }])
      expect(({} as Record<string, unknown>).polluted).toBeUndefined()
      expect((await log.listMovies()).movies).toEqual([])
    })

    it('points at a field named "" as /, and at a body that is not an object as the root', async () => {
      const { log, http } = await serve()
      const withEmptyKey = await expectProblem(await post(http, { ...aMovie(), '': 1 }), 400)
      expect(withEmptyKey.errors).toEqual([
        { pointer: '/', detail: expect.stringContaining('is not a movie field') },
      ])
      const notAnObject = await expectProblem(await post(http, [aMovie()]), 400)
      expect(notAnObject.errors).toEqual([{ pointer: '', detail: 'must be a JSON object' }])
      expect((await log.listMovies()).movies).toEqual([])
    })

    it('refuses a 2 MiB body with 413, declared by Content-Length', async () => {
      const { log, http } = await serve()
      const huge = JSON.stringify(aMovie({ notes: 'x'.repeat(2 * 1024 * 1024) }))
      const response = await post(http, huge).catch((error: unknown) => error)
      // Served by another runtime, over a socket: its 413 and close race the client's upload,
      // whose write may fail first (EPIPE, ECONNRESET), as seen on Bun, Node 22 and workerd.
      // The 413 itself: in this process, and for a small body below.
      if (!(response instanceof Response)) {
        expectUploadReset(response, where === 'remote')
        expect((await log.listMovies()).movies).toEqual([])
        return
      }
      // The client may still be sending the rest: the connection is closed, not drained.
      // A list of tokens (RFC 9110): Deno's server adds its own `close` to the handler's.
      const connection = response.headers.get('connection')
      if (limits.dropsConnectionHeader) expect(connection).toBeNull()
      else expect(connection?.split(/\s*,\s*/)).toContain('close')
      await expectProblem(response, 413)
      expect((await log.listMovies()).movies).toEqual([])
    })

    it('refuses a streamed 2 MiB body with 413 after reading no more than the limit', async () => {
      const { http } = await serve()
      const chunk = new Uint8Array(64 * 1024).fill(0x20)
      let pulled = 0
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= 2 * 1024 * 1024) return controller.close()
          pulled += chunk.byteLength
          controller.enqueue(chunk)
        },
      })
      const response = await http
        .fetch('/movies', {
          method: 'POST',
          headers: JSON_HEADERS,
          body,
          duplex: 'half',
        } as RequestInit)
        .catch((error: unknown) => error)
      if (!(response instanceof Response)) return expectUploadReset(response, where === 'remote')
      await expectProblem(response, 413)
      if (http.origin.startsWith('http://movie-log.test')) {
        // In-process targets: the handler stopped pulling right past the limit.
        expect(pulled).toBeLessThanOrEqual(1024 * 1024 + 2 * chunk.byteLength)
      }
    })

    it('takes a body just under the limit', async () => {
      const { http } = await serve(createMovieLog(), { maxBodyBytes: 300 })
      const body = JSON.stringify(aMovie({ notes: '' }))
      expect(body.length).toBeLessThan(300)
      expect((await post(http, body)).status).toBe(201)
      await expectProblem(await post(http, JSON.stringify(aMovie({ notes: 'x'.repeat(300) }))), 413)
    })
  })

  describe('GET /movies/{id}', () => {
    it('answers 200 with the movie, 404 for an unknown id', async () => {
      const { log, http } = await serve()
      const movie = await log.addMovie(aMovie())
      const found = await http.fetch(`/movies/${movie.id}`)
      expect(found.status).toBe(200)
      expect(found.headers.get('content-type')).toBe('application/json')
      expect(await found.json()).toEqual(movie)
      await expectProblem(await http.fetch(`/movies/${randomUUID()}`), 404)
      const head = await http.fetch(`/movies/${movie.id}`, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(await head.text()).toBe('')
    })
  })

  describe('GET /movies/openapi.json', () => {
    it('serves the OpenAPI 3.1 document, its paths under the base path', async () => {
      const { http } = await serve()
      const response = await http.fetch('/movies/openapi.json')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('application/json')
      const document = await response.json()
      expect(document.openapi).toBe('3.1.0')
      expect(Object.keys(document.paths)).toEqual([
        '/movies',
        '/movies/openapi.json',
        '/movies/stats',
        '/movies/catalog',
        '/movies/share',
        '/movies/import',
        '/movies/{id}',
        '/movies/scrobble/{source}',
        ...['', '/movies', '/rss', '/ics'].map((part) => `/movies/s/{token}${part}`),
        ...Object.keys(document.paths).filter((path) => path.startsWith('/movies/trakt/')),
        '/movies/webhooks',
        '/movies/webhooks/{webhookId}',
      ])
      expect(document.tags.map((tag: { name: string }) => tag.name)).toEqual(
        expect.arrayContaining(['trakt', 'share']),
      )
      expect(document.paths['/movies'].post.operationId).toBe('addMovie')
      const head = await http.fetch('/movies/openapi.json', { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(await head.text()).toBe('')
    })

    inProcess('serves it to anyone, and refuses an Accept without JSON with 406', async () => {
      const { http } = await serve(createMovieLog(), { authorize: () => false })
      expect((await http.fetch('/movies/openapi.json')).status).toBe(200)
      expect((await http.fetch('/movies')).status).toBe(401)
      const refused = await http.fetch('/movies/openapi.json', { headers: { accept: 'text/html' } })
      expect((await expectProblem(refused, 406)).detail).toBe(
        'This resource is only available as application/json.',
      )
      await expectProblem(await http.fetch('/movies/openapi.json', { method: 'POST' }), 405)
    })
  })

  describe('methods', () => {
    it.each([['PUT'], ['DELETE'], ['PATCH'], ['OPTIONS']])(
      '%s /movies gives 405 with Allow',
      async (method) => {
        const { http } = await serve()
        const response = await http.fetch('/movies', { method })
        expect(response.headers.get('allow')).toBe('GET, HEAD, POST')
        await expectProblem(response, 405)
      },
    )
    // Other methods on /movies/{id}: test/http-edits-access.test.ts.
  })

  // A store made to fail and a broken log: in-process only, the whole block.
  if (where === 'in-process')
    describe('failures', () => {
      inProcess('answers 503 while the store is unavailable, and writes nothing', async () => {
        const down = new FlakyMap()
        const { http } = await serve(createMovieLog(down))

        for (const response of [await post(http, aMovie()), await http.fetch('/movies')]) {
          const problem = await expectProblem(response, 503)
          expect(response.headers.get('retry-after')).toBe('5')
          expect(JSON.stringify(problem)).not.toContain('secret-internal-detail')
        }
        down.failing = false
        expect(await (await http.fetch('/movies')).json()).toEqual([])
        expect((await post(http, aMovie())).status).toBe(201)
      })

      inProcess('answers 500 for an unexpected error, without its internals', async () => {
        const logged: unknown[] = []
        const broken: MovieLog = {
          addMovie: async () => {
            throw new Error('secret-internal-detail')
          },
          listMovies: async () => {
            throw new TypeError('secret-internal-detail')
          },
          getMovie: async () => undefined,
          stats: async () => {
            throw new Error('secret-internal-detail')
          },
          updateMovie: async () => {
            throw new Error('secret-internal-detail')
          },
          deleteMovie: async () => false,
          watch: () => {
            throw new TypeError('secret-internal-detail')
          },
        }
        const { http } = await serve(broken, { onError: (error) => logged.push(error) })
        const problem = await expectProblem(await http.fetch('/movies'), 500)
        expect(JSON.stringify(problem)).not.toContain('secret')
        expect(logged).toHaveLength(1)
      })
    })
}
