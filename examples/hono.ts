/**
 * movie-log in a Hono app, through the web-standard handler.
 *
 *   npx tsx examples/hono.ts   -> http://127.0.0.1:3000/movies
 */
import { pathToFileURL } from 'node:url'
import { Hono } from 'hono'
import { createMovieLog, type MovieLog } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { serve } from 'srvx'

export function createHonoApp(log: MovieLog = createMovieLog()): Hono {
  const app = new Hono()
  app.get('/', (c) => c.json({ movies: '/movies' }))
  // Hono's mount strips the prefix; routing '/movies' and '/movies/*' to the handler keeps it.
  // The handler answers either way, and always writes Location under /movies.
  app.mount('/movies', toWebHandler(log))
  return app
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const app = createHonoApp()
  serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' })
}
