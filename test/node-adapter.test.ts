import { createServer, type RequestListener, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express, { type RequestHandler } from 'express'
import { createMovieLog, type Movie, type MovieLog } from 'movie-log'
import { type MovieLogHttpOptions, toNodeHandler } from 'movie-log/node'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'

const servers: Server[] = []
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    server.close()
  }
})

/** An Express app with `parsers` in front of the log at /movies, on a real port. */
async function expressWith(
  parsers: RequestHandler[],
  options?: MovieLogHttpOptions,
): Promise<{ log: MovieLog; url: string }> {
  const log = createMovieLog()
  const app = express()
  app.use(...parsers)
  app.use('/movies', toNodeHandler(log, options))
  const server = createServer(app as RequestListener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { log, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/movies` }
}

const post = (url: string, body: BodyInit, type = 'application/json') =>
  fetch(url, { method: 'POST', headers: { 'content-type': type }, body })

/** A body sent in chunks, without a Content-Length. */
const chunked = (text: string) =>
  ({
    body: new Blob([text]).stream(),
    duplex: 'half',
  }) as RequestInit

describe('the Node handler behind a body parser', () => {
  it('takes the body express.json() parsed, with the same field rules', async () => {
    const { log, url } = await expressWith([express.json()])
    const created = await post(url, JSON.stringify(aMovie()))
    expect(created.status).toBe(201)
    const movie = (await created.json()) as Movie
    expect(created.headers.get('location')).toBe(`${url}/${movie.id}`)

    const refused = await post(url, JSON.stringify(aMovie({ titel: 'Heat' })))
    expect(refused.status).toBe(400)
    expect((await refused.json()).errors).toContainEqual(
      expect.objectContaining({ pointer: '/titel' }),
    )
    expect((await log.listMovies()).movies).toEqual([movie])
  })

  it('keeps maxBodyBytes for a parsed body, with or without a Content-Length', async () => {
    const { log, url } = await expressWith([express.json()], { maxBodyBytes: 300 })
    const large = JSON.stringify(aMovie({ notes: 'x'.repeat(400) }))
    const declared = await post(url, large)
    expect(declared.status).toBe(413)
    expect(declared.headers.get('content-type')).toBe('application/problem+json')
    const streamed = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...chunked(large),
    })
    expect(streamed.status).toBe(413)
    expect((await log.listMovies()).movies).toEqual([])
    expect((await post(url, JSON.stringify(aMovie()))).status).toBe(201)
  })

  it('reads bytes or text a parser left as they are: not JSON, not UTF-8, too large', async () => {
    const raw = express.raw({ type: 'application/json' })
    const { url } = await expressWith([raw], { maxBodyBytes: 300 })
    const notJson = await post(url, '{"title":')
    expect(notJson.status).toBe(400)
    expect((await notJson.json()).detail).toMatch(/not valid JSON/)
    const notUtf8 = await post(url, new Uint8Array([0x7b, 0xff, 0x7d]))
    expect((await notUtf8.json()).detail).toMatch(/not valid UTF-8/)
    const large = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...chunked(JSON.stringify(aMovie({ notes: 'x'.repeat(400) }))),
    })
    expect(large.status).toBe(413)
    expect((await post(url, JSON.stringify(aMovie()))).status).toBe(201)

    const { url: textUrl } = await expressWith([express.text({ type: 'application/json' })])
    expect((await post(textUrl, JSON.stringify(aMovie()))).status).toBe(201)
  })

  it('reads the stream itself when req.body is set but nothing read it (Express 4 parsers)', async () => {
    const emptyBody: RequestHandler = (req, _res, next) => {
      req.body = {}
      next()
    }
    const { url } = await expressWith([emptyBody])
    const created = await post(url, JSON.stringify(aMovie({ title: 'Streamed' })))
    expect(created.status).toBe(201)
    expect(((await created.json()) as Movie).title).toBe('Streamed')
  })

  it('still refuses a body of another content type with 415', async () => {
    const { url } = await expressWith([express.json(), express.text()])
    const response = await post(url, 'Heat', 'text/plain')
    expect(response.status).toBe(415)
  })
})
