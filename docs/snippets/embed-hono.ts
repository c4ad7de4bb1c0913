// #region snippet
import { Hono } from 'hono'
import { createMovieLog } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { serve } from 'srvx'

const log = createMovieLog('sqlite://./data/movies.sqlite')
const app = new Hono().mount('/movies', toWebHandler(log)) // h3: new H3().mount('/movies', toH3Handler(log))
serve({ fetch: app.fetch, port: 3000 }) // http://localhost:3000/movies

await log.addMovie({
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
})
const { movies } = await log.listMovies({ sort: '-screenedDate', limit: 20 })
// #endregion snippet
console.log(movies)
