import { randomUUID } from 'node:crypto'
import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { toNodeHandler as h3ToNode } from 'h3/node'
import type { Movie } from 'movie-log'
import { toNodeHandler } from 'srvx/node'
import { afterEach, describe, expect, it } from 'vitest'
import { createExpressApp } from '../examples/express'
import { createFastifyApp } from '../examples/fastify'
import { createH3App } from '../examples/h3'
import { createHonoApp } from '../examples/hono'
import { createNodeServer } from '../examples/node'
import { aMovie } from './_movies'

// Each mounting example, on a real server on a random port.
const examples: [string, () => Server | Promise<Server>][] = [
  ['hono', () => createServer(toNodeHandler(createHonoApp().fetch) as RequestListener)],
  ['node', () => createNodeServer()],
  ['express, behind express.json()', () => createServer(createExpressApp())],
  [
    'fastify',
    async () => {
      const app = createFastifyApp()
      await app.ready()
      return app.server
    },
  ],
  ['h3', () => createServer(h3ToNode(createH3App()))],
]

let server: Server | undefined
afterEach(() => {
  server?.closeAllConnections()
  server?.close()
})

describe.each(examples)('examples: %s', (_name, create) => {
  it('serves the log at /movies', async () => {
    server = await create()
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

    const created = await fetch(`${origin}/movies`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(aMovie()),
    })
    expect(created.status).toBe(201)
    const movie = (await created.json()) as Movie
    const location = created.headers.get('location') as string
    expect(location).toBe(`${origin}/movies/${movie.id}`)
    expect(await (await fetch(location)).json()).toEqual(movie)
    expect(await (await fetch(`${origin}/movies`)).json()).toEqual([movie])

    const missing = await fetch(`${origin}/movies/${randomUUID()}`)
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).toBe('application/problem+json')
    const put = await fetch(`${origin}/movies`, { method: 'PUT' })
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST')
  })
})
