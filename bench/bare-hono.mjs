/**
 * A reference beside bare h3: hono serving movies from a plain array on srvx (Node's http).
 * The global Response is srvx's FastResponse, as @hono/node-server makes it by default: with
 * Node's own (undici) Response every answer is built as a web stream and read back, which put
 * hono at 0.33-0.52x bare h3 here where issue 36's harness had it at 1.12-1.17x.
 */
import { Hono } from 'hono'
import { FastResponse, serve } from 'srvx'

globalThis.Response = FastResponse

const movies = []
let next = 0

const app = new Hono()
  .get('/movies', (c) => c.json(movies))
  .post('/movies', async (c) => {
    const movie = { id: String(++next), ...(await c.req.json()) }
    movies.push(movie)
    return c.json(movie, 201)
  })

serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1', silent: true })
