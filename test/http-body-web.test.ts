import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { createMovieLog } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'

// A web host's Request with a declared length is read by the host's own arrayBuffer(), its
// fastest read (native on Bun, Deno and workerd; straight from Node on @hono/node-server),
// with the log's limit kept; a body of no declared length is streamed under the limit.

const closers: (() => Promise<unknown>)[] = []
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
})

const movieOfSize = (notesLength: number) =>
  JSON.stringify(aMovie({ notes: 'n'.repeat(notesLength) }))

describe('reading POST bodies on web hosts', () => {
  it("reads through @hono/node-server's arrayBuffer when the length is declared", async () => {
    const log = createMovieLog()
    const handler = toWebHandler(log)
    const reads: string[] = []
    const app = new Hono().all('/movies', (c) => {
      const request = c.req.raw
      const arrayBuffer = request.arrayBuffer.bind(request)
      // Counted on this request only: which read the log chose.
      Object.defineProperty(request, 'arrayBuffer', {
        value: () => {
          reads.push('arrayBuffer')
          return arrayBuffer()
        },
      })
      return handler(request)
    })
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })
    await new Promise((resolve) => server.once('listening', resolve))
    closers.push(() => new Promise((resolve) => server.close(resolve)))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/movies`
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: movieOfSize(10),
    })
    expect(response.status).toBe(201)
    expect(reads).toEqual(['arrayBuffer'])
    expect((await log.listMovies()).movies).toHaveLength(1)
  })

  it('refuses a body longer than its declared length once past the limit', async () => {
    // Made in process: no server stands between, so the declared length may be untrue.
    const log = createMovieLog()
    const request = new Request('http://log.test/movies', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '100' },
      body: movieOfSize(2000),
    })
    const response = await toWebHandler(log, { maxBodyBytes: 1000 })(request)
    expect(response.status).toBe(413)
    expect((await log.listMovies()).movies).toEqual([])
  })
})
