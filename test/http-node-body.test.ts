import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import { type AddressInfo, connect } from 'node:net'
import type { Readable } from 'node:stream'
import { bodyLimit, H3 } from 'h3'
import { toNodeHandler } from 'h3/node'
import { createMovieLog, type MovieLog } from 'movie-log'
import { toH3Handler } from 'movie-log/h3'
import { readsBodiesFromNode } from 'movie-log/node'
import { toWebHandler } from 'movie-log/web'
import { serve } from 'srvx'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'

// On Node, a POST body is read straight from Node's request behind srvx's Request (h3's
// toNodeHandler, srvx's serve()) when nothing else consumes it, with no wrapper around the
// handler. These pin that the shortcut steps aside for anything that does, keeps every body
// limit, and answers a body that breaks off as the web path does.

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

/** Serves `app` as movie-log's server does: h3's toNodeHandler on node:http, nothing around it. */
async function listen(app: H3): Promise<string> {
  const server: Server = createServer(toNodeHandler(app))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => new Promise((resolve) => server.close(resolve)))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/movies`
}

/** Serves `fetch` on srvx's serve() with a `maxRequestBodySize`: the URL of /movies. */
async function serveWithLimit(fetch: (request: Request) => Promise<Response>, limit: number) {
  const server = serve({
    fetch,
    port: 0,
    hostname: '127.0.0.1',
    maxRequestBodySize: limit,
    silent: true,
  })
  await server.ready()
  closers.push(() => server.close(true))
  return new URL('/movies', server.url).href
}

/** POSTs a body without a Content-Length (chunked), failing the test instead of hanging. */
function postChunked(url: string, body: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: new Blob([body]).stream(),
    duplex: 'half',
    signal: AbortSignal.timeout(4000),
  } as RequestInit)
}

const movieOfSize = (notesLength: number) =>
  JSON.stringify(aMovie({ notes: 'n'.repeat(notesLength) }))

async function stored(log: MovieLog) {
  return (await log.listMovies()).movies.length
}

describe('reading POST bodies on Node', () => {
  it("answers when h3's bodyLimit has already taken the body, small or large", async () => {
    const log = createMovieLog()
    const url = await listen(
      new H3({ silent: true }).use(bodyLimit(10_000_000)).mount('/movies', toH3Handler(log)),
    )
    expect((await postChunked(url, movieOfSize(9000))).status).toBe(201)
    // Past the notes limit: a 400, after the whole 30 KB went through bodyLimit's stream.
    expect((await postChunked(url, movieOfSize(30_000))).status).toBe(400)
    expect(await stored(log)).toBe(1)
  })

  it("keeps h3's bodyLimit: a body past it is refused and nothing is stored", async () => {
    const log = createMovieLog()
    const errors: unknown[] = []
    const url = await listen(
      new H3({ silent: true })
        .use(bodyLimit(100))
        .mount('/movies', toH3Handler(log, { onError: (error) => errors.push(error) })),
    )
    const response = await postChunked(url, movieOfSize(5000))
    // h3's own 413, as its bodyLimit raised it while the body was read: not a 500 (issue 26).
    expect(response.status).toBe(413)
    expect(errors).toEqual([])
    expect(await stored(log)).toBe(0)
  })

  it("keeps srvx's maxRequestBodySize: a body past it is 413, the server's limit as srvx says", async () => {
    const log = createMovieLog()
    const url = await serveWithLimit(toWebHandler(log), 200)
    for (const post of [
      () => postChunked(url, movieOfSize(3000)),
      () =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: movieOfSize(3000),
        }),
    ]) {
      const response = await post()
      expect(response.status).toBe(413)
      // srvx's own error, from its stream: the log's limit (1 MiB) would have let it through.
      expect(((await response.json()) as { detail: string }).detail).toContain("server's limit")
    }
    expect(await stored(log)).toBe(0)
  })

  it("keeps the smaller limit: the log's under a larger maxRequestBodySize of srvx's", async () => {
    const log = createMovieLog()
    const url = await serveWithLimit(toWebHandler(log, { maxBodyBytes: 1000 }), 5000)
    const response = await postChunked(url, movieOfSize(3000))
    expect(response.status).toBe(413)
    expect(((await response.json()) as { detail: string }).detail).toContain('1000 bytes')
    expect(await stored(log)).toBe(0)
  })

  it("reads from Node under srvx's serve() too, with no wrapper", async () => {
    const bodyUsed: boolean[] = []
    const app = new H3({
      silent: true,
      onResponse: (_response, event) => {
        bodyUsed.push(event.req.bodyUsed)
      },
    }).mount('/movies', toH3Handler(createMovieLog()))
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', silent: true })
    await server.ready()
    closers.push(() => server.close(true))
    const response = await fetch(new URL('/movies', server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: movieOfSize(10),
    })
    expect(response.status).toBe(201)
    // srvx's web stream was never made: its Request does not count the body as used.
    expect(bodyUsed).toEqual([false])
  })

  it('leaves a handler wrapped in readsBodiesFromNode as it was: the wrapper is not needed', () => {
    const handler = toNodeHandler(new H3())
    expect(readsBodiesFromNode(handler)).toBe(handler)
  })

  it('answers 400 to a body that breaks off, read on the Node path, and stores nothing', async () => {
    const log = createMovieLog()
    const errors: unknown[] = []
    let answered: (status: number) => void = () => {}
    const status = new Promise<number>((resolve) => {
      answered = resolve
    })
    const app = new H3({ silent: true, onResponse: (response) => answered(response.status) })
    const url = new URL(
      await listen(app.mount('/movies', toH3Handler(log, { onError: (e) => errors.push(e) }))),
    )
    // A tenth of the declared body, then the connection goes: the read ends in 'close'.
    const socket = connect(Number(url.port), url.hostname)
    await new Promise((resolve) => socket.once('connect', resolve))
    const start = movieOfSize(0).slice(0, 100)
    socket.write(
      `POST /movies HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\n` +
        `content-length: 1000\r\n\r\n${start}`,
      () => socket.destroy(),
    )

    expect(await status).toBe(400)
    expect(errors).toEqual([])
    expect(await stored(log)).toBe(0)
  })

  it("reads from Node itself, and lets Node's request end and close once its body is read", async () => {
    const requests: Readable[] = []
    const bodyUsed: boolean[] = []
    const app = new H3({
      silent: true,
      onRequest: (event) => {
        const node = event.runtime?.node as { req: Readable } | undefined
        if (node) requests.push(node.req)
      },
      onResponse: (_response, event) => {
        bodyUsed.push(event.req.bodyUsed)
      },
    })
    const url = await listen(app.mount('/movies', toH3Handler(createMovieLog())))
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: movieOfSize(10),
    })
    expect(response.status).toBe(201)
    // Read from Node's request, not through srvx's web stream.
    expect(bodyUsed).toEqual([false])
    expect(requests).toHaveLength(1)
    const [request] = requests as [Readable]
    // Bounded, so a request that never closes fails the test instead of hanging it.
    if (!request.closed) await once(request, 'close', { signal: AbortSignal.timeout(4000) })
    expect(request.readableEnded).toBe(true)
  })

  it('reads a body whose rest arrives after the request is being handled', async () => {
    const log = createMovieLog()
    const body = movieOfSize(2000)
    let handling: () => void = () => {}
    const started = new Promise<void>((resolve) => {
      handling = resolve
    })
    const app = new H3({ silent: true, onRequest: () => handling() })
    const url = new URL(await listen(app.mount('/movies', toH3Handler(log))))
    const socket = connect(Number(url.port), url.hostname)
    const answer = readAnswer(socket)
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write(
      `POST /movies HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body.slice(0, 100)}`,
    )
    await started
    // Written, not ended: a client's end would cut short what the server has not answered.
    socket.write(body.slice(100))

    expect(await answer).toMatch(/^HTTP\/1\.1 201 /)
    expect(await stored(log)).toBe(1)
  })

  it('reads pipelined requests that arrive together, each its own body', async () => {
    const log = createMovieLog()
    const url = new URL(await listen(new H3().mount('/movies', toH3Handler(log))))
    const titles = ['First', 'Second', 'Third']
    const requests = titles.map((title, index) => {
      const body = JSON.stringify(aMovie({ title }))
      const close = index === titles.length - 1 ? 'connection: close\r\n' : ''
      return (
        `POST /movies HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n${close}\r\n${body}`
      )
    })
    const socket = connect(Number(url.port), url.hostname)
    const answer = readAnswer(socket)
    socket.write(requests.join(''))

    // Each answer's body runs straight into the next status line.
    expect((await answer).match(/HTTP\/1\.1 201 /g)).toHaveLength(3)
    const { movies } = await log.listMovies()
    expect(movies.map((movie) => movie.title)).toEqual(titles)
  })
})

/** Everything the server sends on a socket, once it closes. */
function readAnswer(socket: ReturnType<typeof connect>): Promise<string> {
  let text = ''
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk
  })
  return new Promise((resolve, reject) => {
    socket.once('close', () => resolve(text))
    socket.once('error', reject)
  })
}
