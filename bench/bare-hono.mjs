/** A reference beside bare h3: hono serving movies from a plain array on srvx (Node's http). */
import { Hono } from 'hono'
import { serve } from 'srvx'

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
