// Issue 61 item 6, the scrobble route's refusals: how much a 400 says of the fields it did not
// know, and which part a 413 names.
import { createMovieLog } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { type Delivery, fixture, genericDelivery, requestInit } from './_scrobble'

function serving(options: Parameters<typeof toWebHandler>[1] = {}) {
  const log = createMovieLog()
  const handler = toWebHandler(log, options)
  const send = (source: string, delivery: Delivery) =>
    handler(new Request(`http://localhost/movies/scrobble/${source}`, requestInit(delivery)))
  return { log, send, handler }
}

describe("the generic scrobble's unknown fields", () => {
  it('names ten at most, each shortened, and says how many more: a short answer', async () => {
    const { log, send } = serving()
    const extra: Record<string, number> = {}
    for (let n = 0; n < 12_000; n++) extra[`made-up-field-${n}-${'x'.repeat(30)}`] = n
    const response = await send(
      'generic',
      genericDelivery({ ...fixture('generic-movie'), ...extra }),
    )
    expect(response.status).toBe(400)
    const { detail } = (await response.json()) as { detail: string }
    const named = detail.match(/made-up-field-\d+/g) ?? []
    expect(named).toEqual(Array.from({ length: 10 }, (_, n) => `made-up-field-${n}`))
    expect(detail).toMatch(/ and 11990 more\.$/)
    expect(detail).not.toContain('x'.repeat(30))
    expect(detail.length).toBeLessThan(1000)
    expect((await log.listMovies()).movies).toEqual([])
  })

  it('names one or a few unknown fields whole', async () => {
    const { send } = serving()
    const response = await send(
      'generic',
      genericDelivery({ ...fixture('generic-movie'), rating: 5 }),
    )
    expect(((await response.json()) as { detail: string }).detail).toBe('Unknown field(s): rating.')
  })
})

describe("a Plex form's part past the limit", () => {
  const BOUNDARY = '------------------------5f1d2c3b4a596877'
  const part = (head: string, bytes: Uint8Array | string) => [
    `--${BOUNDARY}\r\nContent-Disposition: form-data; ${head}\r\n\r\n`,
    bytes,
    '\r\n',
  ]
  // The form as Plex sends it, its parts in the order given, in chunks of 16 KiB as a socket
  // delivers them (a part's headers may be cut across two).
  function form(...parts: (Uint8Array | string)[][]): Delivery {
    const blob = new Blob([...parts.flat(), `--${BOUNDARY}--\r\n`] as BlobPart[])
    let at = 0
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (at >= blob.size) return controller.close()
        controller.enqueue(new Uint8Array(await blob.slice(at, at + 16 * 1024).arrayBuffer()))
        at += 16 * 1024
      },
    })
    return { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body }
  }
  const thumb = (size: number) =>
    part(
      'name="thumb"; filename="thumb.jpg"\r\nContent-Type: image/jpeg',
      new Uint8Array(size).fill(0xd9),
    )
  const payload = (padding = '') =>
    part('name="payload"', JSON.stringify({ ...fixture('plex-movie-scrobble'), padding }))

  it.each([
    ['a thumb sent before the payload', () => form(thumb(200 * 1024), payload()), 'thumb'],
    [
      'the payload after a small thumb',
      () => form(thumb(1024), payload('x'.repeat(100 * 1024))),
      'payload',
    ],
    ['the payload, first', () => form(payload('x'.repeat(100 * 1024)), thumb(1024)), 'payload'],
  ])('%s: 413 naming it', async (_what, delivery, name) => {
    const { log, send } = serving({ maxBodyBytes: 64 * 1024 })
    const response = await send('plex', delivery())
    expect(response.status).toBe(413)
    const { detail } = (await response.json()) as { detail: string }
    expect(detail).toBe(`The '${name}' part is larger than the limit of 65536 bytes.`)
    expect((await log.listMovies()).movies).toEqual([])
  })

  it('logs the movie when every part is within the limit, a thumb first', async () => {
    const { log, send } = serving({ maxBodyBytes: 64 * 1024 })
    expect((await send('plex', form(thumb(30 * 1024), payload()))).status).toBe(201)
    expect((await log.listMovies()).movies).toHaveLength(1)
  })
})

describe("a client's Idempotency-Key never meets a scrobble's", () => {
  const watch = { ...fixture('generic-movie') }
  const imdbId = String(watch.imdbId)
  const add = (handler: ReturnType<typeof serving>, key: string, title: string) =>
    handler.handler(
      new Request('http://localhost/movies', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(aMovie({ title })),
      }),
    )

  it("shaped as a scrobble's own, it leaves that watch to be logged", async () => {
    const served = serving()
    // The key the route makes for this watch: its source, IMDb id and instant.
    const at = new Date(String(watch.watchedAt)).toISOString()
    const key = `scrobble:generic:${imdbId}:${at}`
    const added = await add(served, key, 'Not the watch')
    expect(added.status).toBe(201)
    // The same key again replays the client's movie, as any key does.
    const again = await add(served, key, 'Not the watch')
    expect(again.status).toBe(201)
    expect((await again.json()).id).toBe((await added.json()).id)
    const scrobbled = await served.send('generic', genericDelivery(watch))
    expect(scrobbled.status).toBe(201)
    expect((await scrobbled.json()).title).toBe(watch.title)
    expect((await served.log.listMovies()).movies).toHaveLength(2)
  })

  it('keys moved aside stay apart from the keys they could be mistaken for', async () => {
    const served = serving()
    const keys = ['x', 'client:x', 'client:client:x', 'scrobble:x', 'client:scrobble:x']
    for (const [n, key] of keys.entries()) {
      expect((await add(served, key, `Movie ${n}`)).status, key).toBe(201)
    }
    expect((await served.log.listMovies()).movies).toHaveLength(keys.length)
  })
})
