/**
 * movie-log on Bun: the log at /movies on SQLite, served by Bun.serve.
 *
 *   bun examples/bun.ts   -> http://127.0.0.1:3000/movies
 */
import { createMovieLog } from 'movie-log'
import { toWebHandler } from 'movie-log/web'

const log = createMovieLog(process.env.MOVIE_LOG_STORE ?? 'sqlite://./data/movies.sqlite')
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  fetch: toWebHandler(log),
})
console.log(`listening ${new URL('/movies', server.url)}`)
