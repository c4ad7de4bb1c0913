/** The baseline app: bare h3 v2 serving movies from a plain array, no validation, no store. */
import { H3, readBody } from 'h3'

export function bareH3() {
  const movies = []
  let next = 0
  return new H3()
    .get('/movies', () => movies)
    .post('/movies', async (event) => {
      const movie = { id: String(++next), ...(await readBody(event)) }
      movies.push(movie)
      event.res.status = 201
      return movie
    })
}
