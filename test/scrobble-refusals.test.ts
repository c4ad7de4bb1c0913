// Issue 61 item 6, the scrobble route's refusals: how much a 400 says of the fields it did not
// know, and which part a 413 names.
import { createMovieLog } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { type Delivery, fixture, genericDelivery, requestInit } from './_scrobble'

function serving(options: Parameters<typeof toWebHandler>[1] = {}) {
  const log = createMovieLog()
  const handler = toWebHandler(log, options)
  const send = (source: string, delivery: Delivery) =>
    handler(new Request(`http://localhost/movies/scrobble/${source}`, requestInit(delivery)))
  return { log, send }
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
