/**
 * movie-log on Deno: the log at /movies on SQLite, served by Deno.serve. Deno reads the
 * dependencies from package.json and node_modules, as an npm app has them.
 *
 *   deno run --allow-all examples/deno.ts   -> http://127.0.0.1:3000/movies
 */
import { createMovieLog } from 'movie-log'
import { sqlite } from 'movie-log/sqlite'
import { toWebHandler } from 'movie-log/web'

const log = createMovieLog(sqlite('./data/movies.sqlite'))
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 3000),
    onListen: ({ hostname, port }) => console.log(`listening http://${hostname}:${port}/movies`),
  },
  toWebHandler(log),
)
