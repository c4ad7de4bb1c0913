import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { EventSource } from 'eventsource'
import {
  createMovieLog,
  createMovieLogs,
  type Movie,
  type MovieLog,
  type MovieLogs,
} from 'movie-log'
import { type MovieLogHttpOptions, toNodeHandler } from 'movie-log/node'
import { toWebHandler } from 'movie-log/web'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { stop } from './_processes'
import { childrenOfEachTest, post } from './_server-client'
import { closeServer, listenOnFreePort } from './_through-client'
import { latestChangeOf } from './_watch-helpers'

// The change feed (GET /movies, Accept: text/event-stream) against a real listening server,
// read with a real EventSource (the `eventsource` package, the WHATWG one for Node).

interface Feed {
  url: string
  server: Server
  /** Every socket the server accepted: a test cuts connections by destroying them. */
  sockets: Set<Socket>
  /** The Last-Event-ID header of each feed request, in order (`null`: none). */
  lastEventIds: (string | null)[]
}

const servers: Server[] = []
const sources: EventSource[] = []
afterEach(async () => {
  for (const source of sources.splice(0)) source.close()
  await Promise.all(servers.splice(0).map(closeServer))
})

async function serve(log: MovieLog | MovieLogs, options?: MovieLogHttpOptions): Promise<Feed> {
  const handler = toNodeHandler(log, options)
  const lastEventIds: (string | null)[] = []
  const server = createServer((req, res) => {
    if (String(req.headers.accept).includes('text/event-stream')) {
      lastEventIds.push((req.headers['last-event-id'] as string | undefined) ?? null)
    }
    void handler(req, res)
  })
  const sockets = new Set<Socket>()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  servers.push(server)
  return { url: `${await listenOnFreePort(server)}/movies`, server, sockets, lastEventIds }
}

interface Received {
  type: string
  id: string
  data: unknown
}

/** An EventSource on `url`, its events gathered; `headers` sent with each of its requests. */
function open(url: string, headers: Record<string, string> = {}) {
  const received: Received[] = []
  const source = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...(init?.headers as object), ...headers } }),
  })
  sources.push(source)
  for (const type of ['added', 'updated', 'deleted', 'reset']) {
    source.addEventListener(type, (event) => {
      received.push({ type, id: event.lastEventId, data: JSON.parse(event.data) })
    })
  }
  const opened = once(source as unknown as EventTarget, 'open')
  /** Resolves once `count` events have arrived. */
  const events = (count: number) =>
    expect.poll(() => received.length >= count && received.slice(0, count)).toBeTruthy()
  return { source, received, opened, events }
}

const titles = (received: Received[]) =>
  received.map(({ type, data }) => `${type} ${(data as Movie).title ?? (data as Movie).id}`)

describe('GET /movies as Server-Sent Events', () => {
  it('streams adds, edits and deletes, each with an id; retry first; */* still gets JSON', async () => {
    const log = createMovieLog()
    const { url } = await serve(log)
    const raw = await fetch(url, { headers: { accept: 'text/event-stream' } })
    expect(raw.status).toBe(200)
    expect(raw.headers.get('content-type')).toBe('text/event-stream')
    const reader = raw.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^retry: \d+\n/)
    await reader.cancel()

    // A change before the feed opened is not streamed: it starts after the latest.
    await log.addMovie(aMovie({ title: 'Earlier' }))
    const feed = open(url)
    await feed.opened
    const movie = (await (await post(url, aMovie({ title: 'Added' }))).json()) as Movie
    const edited = await log.updateMovie(movie.id, { title: 'Edited' })
    await log.deleteMovie(movie.id)
    await feed.events(3)
    expect(feed.received.map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'added', data: movie },
      { type: 'updated', data: edited },
      { type: 'deleted', data: { id: movie.id } },
    ])
    expect(new Set(feed.received.map(({ id }) => id)).size).toBe(3)

    for (const accept of ['*/*', 'application/json', 'text/event-stream;q=0, */*']) {
      const listed = await fetch(url, { headers: { accept } })
      expect(listed.headers.get('content-type')).toBe('application/json')
      expect(((await listed.json()) as Movie[]).map((each) => each.title)).toEqual(['Earlier'])
    }
  })

  it('streams a new diary from its first change, added, with no reset (issue 29)', async () => {
    const log = createMovieLog()
    const { url } = await serve(log)
    const feed = open(url)
    // Open once the watch has begun (the feed reads its start before answering).
    await feed.opened
    const first = await log.addMovie(aMovie({ title: 'First' }))
    await log.addMovie(aMovie({ title: 'Second' }))
    await feed.events(2)
    expect(titles(feed.received)).toEqual(['added First', 'added Second'])
    expect(feed.received[0]?.data).toEqual(first)
  })

  it('resumes after a dropped connection with exactly the changes it missed', async () => {
    const log = createMovieLog()
    const { url, sockets, lastEventIds } = await serve(log)
    await log.addMovie(aMovie({ title: 'Earlier' }))
    const feed = open(url)
    await feed.opened
    await log.addMovie(aMovie({ title: 'Before' }))
    await feed.events(1)
    const dropped = once(feed.source as unknown as EventTarget, 'error')
    for (const socket of sockets) socket.destroy()
    await dropped
    for (const n of [1, 2, 3]) await log.addMovie(aMovie({ title: `Missed ${n}` }))
    await feed.events(4)
    const after = await log.addMovie(aMovie({ title: 'After' }))
    await feed.events(5)
    expect(titles(feed.received)).toEqual([
      'added Before',
      'added Missed 1',
      'added Missed 2',
      'added Missed 3',
      `added ${after.title}`,
    ])
    // The second request named the last event the first one delivered.
    expect(lastEventIds).toEqual([null, feed.received[0]?.id])
  })

  // Issue 55 item 4: the feed opened with an id and no data, an event no parser dispatched.
  it('opens with a ready event naming its start: a drop before any change resumes from it', async () => {
    const log = createMovieLog()
    const { url, sockets, lastEventIds } = await serve(log)
    const start = await latestChangeOf(log)
    const feed = open(url)
    const readies: string[] = []
    feed.source.addEventListener('ready', (event) => readies.push(event.lastEventId))
    await expect.poll(() => readies).toEqual([start])
    const dropped = once(feed.source as unknown as EventTarget, 'error')
    for (const socket of sockets) socket.destroy()
    await dropped
    await log.addMovie(aMovie({ title: 'Missed' }))
    await feed.events(1)
    expect(titles(feed.received)).toEqual(['added Missed'])
    expect(lastEventIds).toEqual([null, start])
  })

  it('replays the changes after the lastEventId query parameter', async () => {
    const log = createMovieLog()
    const { url } = await serve(log)
    await log.addMovie(aMovie({ title: 'Earlier' }))
    const first = open(url)
    await first.opened
    for (const n of [1, 2, 3]) await log.addMovie(aMovie({ title: `Movie ${n}` }))
    await first.events(3)
    const replay = open(`${url}?lastEventId=${encodeURIComponent(first.received[0]?.id ?? '')}`)
    await replay.events(2)
    expect(replay.received).toEqual(first.received.slice(1))
  })

  it('gives each owner only their own changes, behind authorize (401, 403)', async () => {
    const logs = createMovieLogs()
    const { url } = await serve(logs, {
      owner: (request) => request.headers.get('x-user') ?? undefined,
      authorize: (request) => (request.headers.get('x-user') === 'mallory' ? 403 : true),
    })
    await logs.of('alice').addMovie(aMovie({ title: 'Earlier' }))
    const alice = open(url, { 'x-user': 'alice' })
    await alice.opened
    const bobs = await logs.of('bob').addMovie(aMovie({ title: 'Bob’s' }))
    await logs.of('bob').deleteMovie(bobs.id)
    await logs.of('alice2').addMovie(aMovie({ title: 'alice2’s' }))
    await logs.of('alice').addMovie(aMovie({ title: 'Alice’s' }))
    await alice.events(1)
    expect(titles(alice.received)).toEqual(['added Alice’s'])

    for (const [headers, status] of [
      [{}, 401],
      [{ 'x-user': 'mallory' }, 403],
    ] as const) {
      const refused = await fetch(url, { headers: { accept: 'text/event-stream', ...headers } })
      expect(refused.status).toBe(status)
      expect(refused.headers.get('content-type')).toBe('application/problem+json')
      const source = open(url, headers).source
      await once(source as unknown as EventTarget, 'error')
      expect(source.readyState).toBe(EventSource.CLOSED)
    }
  })

  it('is in the OpenAPI document: the stream, its events and where it resumes', async () => {
    const { url } = await serve(createMovieLog())
    const document = (await (await fetch(`${url}/openapi.json`)).json()) as {
      paths: Record<string, { get: { responses: Record<string, unknown>; parameters: unknown[] } }>
      components: { parameters: Record<string, { name: string }> }
    }
    const list = document.paths['/movies']?.get
    const ok = list?.responses['200'] as { content: object } | undefined
    const stream = JSON.stringify(ok?.content)
    for (const event of ['added', 'updated', 'deleted', 'reset', 'retry:', 'keep-alive']) {
      expect(stream).toContain(event)
    }
    const named = list?.parameters.map((parameter) => {
      const ref = (parameter as { $ref: string }).$ref.split('/').at(-1) as string
      return document.components.parameters[ref]?.name
    })
    expect(named).toEqual(expect.arrayContaining(['lastEventId', 'Last-Event-ID']))
  })

  it('sends a keep-alive comment while idle', async () => {
    const { url } = await serve(createMovieLog(), { keepAliveMs: 20 })
    const response = await fetch(url, { headers: { accept: 'text/event-stream' } })
    const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>
    let text = ''
    while (!text.includes(': keep-alive\n\n')) {
      text += new TextDecoder().decode((await reader.read()).value)
    }
    await reader.cancel()
  })
})

describe('a change feed whose reader stops reading', () => {
  it('is cut off past its buffer, not held in memory', async () => {
    const log = createMovieLog()
    const handler = toWebHandler(log, { maxFeedBufferBytes: 4096 })
    const response = await handler(
      new Request('http://localhost/movies', { headers: { accept: 'text/event-stream' } }),
    )
    // Each event is about 250 bytes: 40 of them are past 4 KiB, with nothing read.
    for (let n = 0; n < 40; n++) await log.addMovie(aMovie({ title: `Movie ${n}` }))
    // The feed's reads and writes, all in memory, are done within this turn of the event loop.
    await new Promise(setImmediate)
    const text = response.text()
    await expect(text).rejects.toThrow()
  })
})

describe('the server on SIGTERM', () => {
  const { start } = childrenOfEachTest()

  it('ends its open feeds and exits at once', async () => {
    const server = await start({ MOVIE_LOG_STORE: 'memory://' })
    const response = await fetch(server.url, { headers: { accept: 'text/event-stream' } })
    const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>
    await reader.read()
    const exited = stop(server)
    // The stream ends cleanly (no error), and the process exits 0, not by its 10 s deadline.
    for (let read = await reader.read(); !read.done; read = await reader.read());
    expect(await exited).toBe(0)
  })
})
