// Issue 27: owners kept apart over HTTP, through the h3 and Node adapters with many logs and an
// owner function of the request, whatever id one owner names.

import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { H3 } from 'h3'
import { createMovieLogs, type Movie, type MovieLogs } from 'movie-log'
import { toH3Handler } from 'movie-log/h3'
import { toNodeHandler } from 'movie-log/node'
import type { MovieLogHttpOptions } from 'movie-log/web'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'

const OWNERS = ['alice', 'alice2', 'alice:{x}', '🎬 * ünï']
const ORIGIN = 'http://movie-log.test'
// The host's authentication, as a proxy would pass it: the owner URI-encoded in a header.
const owner: MovieLogHttpOptions['owner'] = async (request) => {
  const header = request.headers.get('x-owner')
  return header === null ? undefined : decodeURIComponent(header)
}

type Send = (path: string, init?: RequestInit) => Promise<Response>
const targets: [string, (logs: MovieLogs) => Promise<{ send: Send; close(): Promise<void> }>][] = [
  [
    'h3',
    async (logs) => {
      const app = new H3({ silent: true }).mount('/movies', toH3Handler(logs, { owner }))
      return {
        send: async (path, init) => app.fetch(new Request(ORIGIN + path, init)),
        close: async () => {},
      }
    },
  ],
  [
    'node',
    async (logs) => {
      const server = createServer(toNodeHandler(logs, { owner }))
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      return {
        send: (path, init) => fetch(origin + path, init),
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      }
    },
  ],
]

describe.each(targets)('owners over HTTP: %s', (_name, serve) => {
  let close = async () => {}
  afterEach(() => close())

  it('never lists, reads, changes or deletes another owner’s movie, and gives each owner a movie for one Idempotency-Key', async () => {
    const logs = createMovieLogs()
    const target = await serve(logs)
    close = target.close
    const as = (who: string, path: string, init: RequestInit = {}) =>
      target.send(path, {
        ...init,
        headers: { 'x-owner': encodeURIComponent(who), ...(init.headers as object) },
      })
    const post = (who: string) =>
      as(who, '/movies', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'one-key-for-all' },
        body: JSON.stringify(aMovie({ title: `${who}'s` })),
      })

    const mine = new Map<string, Movie>()
    for (const who of OWNERS) {
      const response = await post(who)
      expect(response.status).toBe(201)
      mine.set(who, await response.json())
    }
    const ids = [...mine.values()].map((movie) => movie.id)
    expect(new Set(ids).size).toBe(OWNERS.length)
    for (const who of OWNERS) {
      // The key replays the owner's own movie, not the first owner's.
      expect((await (await post(who)).json()).id).toBe(mine.get(who)?.id)
    }

    for (const who of OWNERS) {
      for (const [other, theirs] of mine) {
        if (other === who) continue
        const path = `/movies/${theirs.id}`
        expect((await as(who, path)).status).toBe(404)
        expect((await as(who, path, { method: 'HEAD' })).status).toBe(404)
        const patch = await as(who, path, {
          method: 'PATCH',
          headers: { 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify({ title: 'Taken over' }),
        })
        expect(patch.status).toBe(404)
        expect((await as(who, path, { method: 'DELETE' })).status).toBe(404)
      }
    }
    for (const who of OWNERS) {
      expect(await (await as(who, '/movies')).json()).toEqual([mine.get(who)])
      expect(await (await as(who, '/movies?limit=10')).json()).toEqual([mine.get(who)])
      expect(await (await as(who, `/movies/${mine.get(who)?.id}`)).json()).toEqual(mine.get(who))
    }
    expect((await target.send('/movies')).status).toBe(401)

    // What is the owner's own is theirs to change, and changing it touches no one else's.
    const [first, second] = OWNERS as [string, string]
    const own = `/movies/${mine.get(first)?.id}`
    const patched = await as(first, own, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ title: 'Renamed' }),
    })
    expect(patched.status).toBe(200)
    expect((await as(first, own, { method: 'DELETE' })).status).toBe(204)
    expect(await (await as(first, '/movies')).json()).toEqual([])
    expect(await (await as(second, '/movies')).json()).toEqual([mine.get(second)])
    await logs.close()
  })
})
