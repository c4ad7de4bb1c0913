/**
 * Bare h3 with the movie-log core and none of its HTTP contract: POST validates, makes an id
 * and writes through keyv (memory). For `bench:instructions`, to tell the core's cost apart.
 */
import { createServer } from 'node:http'
import { H3, readBody } from 'h3'
import { toNodeHandler } from 'h3/node'
import { createMovieLog, type NewMovie } from 'movie-log'

const log = createMovieLog()

const app = new H3()
  .get('/movies', async () => (await log.listMovies({ limit: 1000 })).movies)
  .post('/movies', async (event) => {
    // The core checks the body at run time, as the HTTP handlers rely on.
    const movie = await log.addMovie((await readBody(event)) as NewMovie)
    event.res.status = 201
    return movie
  })

createServer(toNodeHandler(app)).listen(Number(process.env.PORT), '127.0.0.1')
