/**
 * movie-log in an Express 5 app, behind `express.json()` as most apps have it.
 *
 *   npx tsx examples/express.ts   -> http://127.0.0.1:3000/movies
 */
import { pathToFileURL } from 'node:url'
import express, { type Express } from 'express'
import { createMovieLog, type MovieLog } from 'movie-log'
import { toNodeHandler } from 'movie-log/node'

export function createExpressApp(log: MovieLog = createMovieLog()): Express {
  const app = express()
  // The app's own JSON parser runs first; the log takes the body it parsed from req.body, with
  // its own rules and limit (express.json()'s limit, 100 kB by default, applies before it).
  app.use(express.json())
  // Express strips '/movies' from req.url; the handler answers the stripped path and writes
  // Location under its basePath, /movies.
  app.use('/movies', toNodeHandler(log))
  app.get('/', (_req, res) => {
    res.json({ movies: '/movies' })
  })
  return app
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  createExpressApp().listen(Number(process.env.PORT ?? 3000), '127.0.0.1')
}
