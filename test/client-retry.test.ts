import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { Movie } from 'movie-log'
import { createMovieLogClient } from 'movie-log/client'
import { afterEach, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { closeServer, listenOnFreePort, startExampleServer } from './_through-client'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map(closeServer))
})

/**
 * A proxy in front of `upstream` that forwards every request, but drops the answer to the
 * first POST: the server stored the movie, and the client sees its connection cut.
 */
async function droppingProxy(upstream: string) {
  const posts: string[] = []
  const proxy = createServer(async (request, response) => {
    const body = await readAll(request)
    const headers = { ...request.headers } as Record<string, string>
    delete headers.host
    delete headers.connection
    const answer = await fetch(upstream + request.url, {
      method: request.method,
      headers,
      body: body.byteLength > 0 ? new Uint8Array(body) : undefined,
    })
    const text = await answer.text()
    if (request.method === 'POST') {
      posts.push(`${answer.status} ${headers['idempotency-key']}`)
      if (posts.length === 1) return request.socket.destroy()
    }
    response.writeHead(answer.status, Object.fromEntries(answer.headers))
    response.end(text)
  })
  servers.push(proxy)
  return { origin: await listenOnFreePort(proxy), posts }
}

async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

it('a retried add makes exactly one movie when the first answer is lost on the way', async () => {
  const store = new Map()
  const { url, server } = await startExampleServer(store)
  servers.push(server)
  const { origin, posts } = await droppingProxy(new URL(url).origin)

  const client = createMovieLogClient(`${origin}/movies`)
  const movie: Movie = await client.addMovie(aMovie({ title: 'Sent once, answered twice' }))

  // The server got the add twice, with one key: the second answer is the first movie again.
  expect(posts).toHaveLength(2)
  expect(posts[0]).toBe(posts[1])
  expect(posts[0]).toMatch(/^201 /)
  const stored = await createMovieLogClient(url).listMovies()
  expect(stored.movies).toEqual([movie])
})
