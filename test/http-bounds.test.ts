// Issue 61 item 6, the handler's bounds: scrobbles counted as adds, the streamed full JSON list
// counted as a stream, and one owner's streams held to half of them.
import { createMovieLog, createMovieLogs, type MovieLog } from 'movie-log'
import { type MovieLogHttpOptions, toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { aMovie } from './_movies'

const ORIGIN = 'http://localhost'
const encoder = new TextEncoder()

/** A body that stays open until `end` is called, as a slow client sends it. */
function slowBody(start: string) {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c
      c.enqueue(encoder.encode(start))
    },
  })
  return {
    body,
    end: (rest: string) => {
      controller?.enqueue(encoder.encode(rest))
      controller?.close()
    },
  }
}

const post = (path: string, body: BodyInit) =>
  new Request(ORIGIN + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit)

describe('scrobbles share the bound on adds (maxConcurrentAdds)', () => {
  const watch = JSON.stringify({
    imdbId: 'tt0113277',
    title: 'Heat',
    releaseYear: 1995,
    watchedAt: '2024-05-01T20:30:00.000',
  })

  it('a scrobble whose body is still coming holds a place: past the bound, 503', async () => {
    const handle = toWebHandler(createMovieLog(), { maxConcurrentAdds: 1 })
    const slow = slowBody(watch.slice(0, 10))
    const first = handle(post('/movies/scrobble/generic', slow.body))
    // Both routes are refused while it is read: another scrobble, and an add.
    const scrobble = await handle(post('/movies/scrobble/generic', watch))
    expect(scrobble.status).toBe(503)
    expect(scrobble.headers.get('retry-after')).toBe('1')
    expect((await handle(post('/movies', JSON.stringify(aMovie())))).status).toBe(503)
    slow.end(watch.slice(10))
    expect((await first).status).toBe(201)
    // Its place is free again.
    expect((await handle(post('/movies/scrobble/generic', watch))).status).toBe(200)
  })

  it('an add in flight holds a place against scrobbles too', async () => {
    const handle = toWebHandler(createMovieLog(), { maxConcurrentAdds: 1 })
    const movie = JSON.stringify(aMovie())
    const slow = slowBody(movie.slice(0, 10))
    const first = handle(post('/movies', slow.body))
    expect((await handle(post('/movies/scrobble/generic', watch))).status).toBe(503)
    slow.end(movie.slice(10))
    expect((await first).status).toBe(201)
  })
})

async function logOfMoreThanAPage(): Promise<MovieLog> {
  const log = createMovieLog()
  // One more than a page of the streamed list (STREAM_PAGE_SIZE, 1000): the list is streamed.
  for (let n = 0; n <= 1000; n++) await log.addMovie(aMovie({ title: `Movie ${n}` }))
  return log
}

const get = (accept: string, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}/movies`, { headers: { accept, ...headers } })

describe('the streamed full JSON list is a stream (maxStreams)', () => {
  it('counts until it is read or cancelled: past the bound, 503, as exports and feeds', async () => {
    const handle = toWebHandler(await logOfMoreThanAPage(), { maxStreams: 1 })
    const list = await handle(get('application/json'))
    expect(list.status).toBe(200)
    expect((await handle(get('text/csv'))).status).toBe(503)
    const refused = await handle(get('application/json'))
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('5')
    // A page is no stream: still answered.
    expect((await handle(new Request(`${ORIGIN}/movies?limit=5`))).status).toBe(200)
    expect(await list.json()).toHaveLength(1001)
    const next = await handle(get('application/json'))
    expect(next.status).toBe(200)
    await next.body?.cancel()
    const ndjson = await handle(get('application/x-ndjson'))
    expect(ndjson.status).toBe(200)
    await ndjson.body?.cancel()
  })
})

describe('with many owners, one owner holds at most half of the streams', () => {
  const owner: MovieLogHttpOptions['owner'] = (request) =>
    request.headers.get('x-owner') ?? undefined

  it('one owner past half is refused; the others still get theirs', async () => {
    const handle = toWebHandler(createMovieLogs(), { owner, maxStreams: 5 })
    const open = (who: string, accept = 'text/event-stream') =>
      handle(get(accept, { 'x-owner': who }))
    const alices = [await open('alice'), await open('alice'), await open('alice', 'text/csv')]
    expect(alices.map((feed) => feed.status)).toEqual([200, 200, 200])
    const refused = await open('alice')
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('5')
    expect((await refused.json()).detail).toMatch(/this diary/)
    // Bob and Carol share what is left: then the handler's own bound.
    expect((await open('bob')).status).toBe(200)
    expect((await open('carol', 'application/x-ndjson')).status).toBe(200)
    expect((await open('dave')).status).toBe(503)
    // A place Alice frees is hers again.
    await alices[0]?.body?.cancel()
    const again = await open('alice')
    expect(again.status).toBe(200)
    for (const feed of [...alices, again]) await feed.body?.cancel()
  })

  it('a handler of one log gives its one owner every stream', async () => {
    const handle = toWebHandler(createMovieLog(), { maxStreams: 3 })
    const feeds = await Promise.all([1, 2, 3].map(() => handle(get('text/event-stream'))))
    expect(feeds.map((feed) => feed.status)).toEqual([200, 200, 200])
    expect((await handle(get('text/event-stream'))).status).toBe(503)
    for (const feed of feeds) await feed.body?.cancel()
  })
})
