/**
 * movie-log on a plain Node.js http server.
 *
 *   npx tsx examples/node.ts   -> http://127.0.0.1:3000/movies
 */
import { createServer, type Server } from 'node:http'
import { pathToFileURL } from 'node:url'
import { createMovieLog, type MovieLog } from 'movie-log'
import { toNodeHandler } from 'movie-log/node'

export function createNodeServer(log: MovieLog = createMovieLog()): Server {
  const movies = toNodeHandler(log)
  return createServer((req, res) => {
    if (
      req.url === '/movies' ||
      req.url?.startsWith('/movies/') ||
      req.url?.startsWith('/movies?')
    ) {
      return movies(req, res)
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: try /movies\n')
  })
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  createNodeServer().listen(Number(process.env.PORT ?? 3000), '127.0.0.1')
}
