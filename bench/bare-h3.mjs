/** The baseline: bare h3 v2 serving movies from a plain array, no validation, no store. */
import { createServer } from 'node:http'
import { H3, readBody } from 'h3'
import { toNodeHandler } from 'h3/node'

const movies = []
let next = 0

const app = new H3()
  .get('/movies', () => movies)
  .post('/movies', async (event) => {
    const movie = { id: String(++next), ...(await readBody(event)) }
    movies.push(movie)
    event.res.status = 201
    return movie
  })

createServer(toNodeHandler(app)).listen(Number(process.env.PORT), '127.0.0.1')
