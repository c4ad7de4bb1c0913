/**
 * movie-log in an h3 v2 app: the log's routes join the app's router, and the diary page is
 * mounted beside it for the app's users.
 *
 *   npx tsx examples/h3.ts   -> http://127.0.0.1:3000/movies, the page at /diary/
 */
import { pathToFileURL } from 'node:url'
import { H3 } from 'h3'
import { serve } from 'h3/node'
import { createMovieLog, type MovieLog } from 'movie-log'
import { toH3Handler } from 'movie-log/h3'
import { toPageHandler } from 'movie-log/page'

export function createH3App(log: MovieLog = createMovieLog()): H3 {
  return new H3()
    .get('/', () => ({ movies: '/movies', diary: '/diary/' }))
    .mount('/movies', toH3Handler(log))
    .mount('/diary', toPageHandler({ api: '/movies', basePath: '/diary' }))
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serve(createH3App(), { port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' })
}
