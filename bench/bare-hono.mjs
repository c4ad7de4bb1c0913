/**
 * A reference beside bare h3: hono serving movies from a plain array on @hono/node-server, the
 * adapter hono documents for Node (as issue 36's harness most likely ran it). On srvx with
 * FastResponse, the adapter this file used before, hono ran 4-7% slower here (2026-11-27).
 */
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const movies = []
let next = 0

const app = new Hono()
  .get('/movies', (c) => c.json(movies))
  .post('/movies', async (c) => {
    const movie = { id: String(++next), ...(await c.req.json()) }
    movies.push(movie)
    return c.json(movie, 201)
  })

serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' })
