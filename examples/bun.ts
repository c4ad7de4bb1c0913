/**
 * movie-log on Bun: the log at /movies on SQLite, served by Bun.serve.
 *
 *   bun examples/bun.ts   -> http://127.0.0.1:3000/movies
 */
import { createMovieLog } from 'movie-log'
import { sqlite } from 'movie-log/sqlite'
import { toWebHandler } from 'movie-log/web'

const log = createMovieLog(sqlite('./data/movies.sqlite'))
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  fetch: toWebHandler(log),
})
console.log(`listening ${new URL('/movies', server.url)}`)
