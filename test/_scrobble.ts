/**
 * Scrobble deliveries as each media server sends them (the payloads in fixtures/scrobble/):
 * Plex a multipart form with the JSON in `payload` and maybe a `thumb` JPEG after it; Jellyfin's
 * plugin flat JSON as text/plain; Emby JSON, or a form with the JSON in `data`.
 */
import { readFileSync } from 'node:fs'

const FIXTURES = new URL('./fixtures/scrobble/', import.meta.url)

/** A fixture's payload, parsed, to change before sending. */
export const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8'))

export interface Delivery {
  headers: Record<string, string>
  body: string | ReadableStream<Uint8Array>
  /** For a streamed body: how many bytes of it were read so far. */
  pulled?: () => number
}

const BOUNDARY = '------------------------a3f9c1d27e5b4086'
const encoder = new TextEncoder()

/** A form part's text, as Plex and Emby write it (the JSON of a plain field). */
function formField(name: string, value: string): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
}

/**
 * Plex's delivery: `payload`, then (when `thumbBytes` is given) a `thumb` JPEG of that size,
 * made as it is read, so the test never holds it either; `pulled()` says how much was read.
 */
export function plexDelivery(payload: unknown, thumbBytes?: number): Delivery {
  const head = formField('payload', JSON.stringify(payload))
  const headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }
  if (thumbBytes === undefined) return { headers, body: `${head}--${BOUNDARY}--\r\n` }
  const thumbHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="thumb"; filename="thumb.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`
  const chunk = new Uint8Array(64 * 1024).fill(0xd9)
  let thumbLeft = thumbBytes
  let pulled = 0
  let started = false
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      let next: Uint8Array
      if (!started) {
        started = true
        next = encoder.encode(head + thumbHead)
      } else if (thumbLeft > 0) {
        next = chunk.subarray(0, Math.min(chunk.length, thumbLeft))
        thumbLeft -= next.byteLength
      } else {
        controller.enqueue(encoder.encode(`\r\n--${BOUNDARY}--\r\n`))
        controller.close()
        return
      }
      pulled += next.byteLength
      controller.enqueue(next)
    },
  })
  return { headers, body, pulled: () => pulled }
}

/** Jellyfin's webhook plugin: the flat JSON as text/plain, as it sends it unless told otherwise. */
export const jellyfinDelivery = (payload: unknown): Delivery => ({
  headers: { 'content-type': 'text/plain; charset=utf-8' },
  body: JSON.stringify(payload),
})

/** Emby: JSON (`application/json`), or as older servers send it, a form with a `data` part. */
export function embyDelivery(payload: unknown, as: 'json' | 'form' = 'json'): Delivery {
  if (as === 'json') {
    return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) }
  }
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body: `${formField('data', JSON.stringify(payload))}--${BOUNDARY}--\r\n`,
  }
}

export const genericDelivery = (payload: unknown): Delivery => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(payload),
})

/** The request init of a delivery (a streamed body needs `duplex: 'half'`). */
export const requestInit = (delivery: Delivery, headers: Record<string, string> = {}) =>
  ({
    method: 'POST',
    headers: { ...delivery.headers, ...headers },
    body: delivery.body,
    duplex: 'half',
  }) as RequestInit

/** The fixture of each source's finished movie, as its server delivers it. */
export const FINISHED: Record<string, () => Delivery> = {
  plex: () => plexDelivery(fixture('plex-movie-scrobble')),
  jellyfin: () => jellyfinDelivery(fixture('jellyfin-movie-stop')),
  emby: () => embyDelivery(fixture('emby-movie-stop')),
  generic: () => genericDelivery(fixture('generic-movie')),
}

/** `source`'s finished Shawshank, its time field set to `time` as that server writes it. */
export function finishedAt(source: string, time: string | number): Delivery {
  switch (source) {
    case 'plex': {
      const payload = fixture('plex-movie-scrobble')
      ;(payload.Metadata as Record<string, unknown>).lastViewedAt =
        typeof time === 'number' ? time : Date.parse(time) / 1000
      return plexDelivery(payload)
    }
    case 'jellyfin':
      return jellyfinDelivery({ ...fixture('jellyfin-movie-stop'), UtcTimestamp: time })
    case 'emby':
      return embyDelivery({ ...fixture('emby-movie-stop'), Date: time })
    default:
      return genericDelivery({ ...fixture('generic-movie'), watchedAt: time })
  }
}
