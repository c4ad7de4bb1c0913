/**
 * movie-log on a plain Node.js http server: srvx turns the web handler into a Node handler.
 *
 *   npx tsx examples/node.ts   -> http://127.0.0.1:3000/movies
 */
import { createServer, type RequestListener, type Server } from 'node:http'
import { pathToFileURL } from 'node:url'
import { createMovieLog, type MovieLog } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { toNodeHandler } from 'srvx/node'

export function createNodeServer(log: MovieLog = createMovieLog()): Server {
  // srvx types its handler for HTTP/1 and HTTP/2 at once; this server is HTTP/1.
  const movies = toNodeHandler(toWebHandler(log)) as RequestListener
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
