/**
 * movie-log in an Express 5 app: srvx turns the web handler into Node middleware.
 *
 *   npx tsx examples/express.ts   -> http://127.0.0.1:3000/movies
 */
import type { RequestListener } from 'node:http'
import { pathToFileURL } from 'node:url'
import express, { type Express } from 'express'
import { createMovieLog, type MovieLog } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { toNodeHandler } from 'srvx/node'

export function createExpressApp(log: MovieLog = createMovieLog()): Express {
  const app = express()
  // Express strips '/movies' from req.url; the handler answers the stripped path and writes
  // Location under its basePath, /movies. No body parser before it: the handler reads the body.
  // srvx types its handler for HTTP/1 and HTTP/2 at once; Express is HTTP/1.
  app.use('/movies', toNodeHandler(toWebHandler(log)) as RequestListener)
  app.get('/', (_req, res) => {
    res.json({ movies: '/movies' })
  })
  return app
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  createExpressApp().listen(Number(process.env.PORT ?? 3000), '127.0.0.1')
}
