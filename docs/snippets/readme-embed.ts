// #region snippet
import { createServer } from 'node:http'
import { createMovieLog } from 'movie-log'
import { toNodeHandler } from 'movie-log/node'
import { sqlite } from 'movie-log/sqlite'

const log = createMovieLog(sqlite('./data/movies.sqlite'))
createServer(toNodeHandler(log)).listen(3000) // http://localhost:3000/movies

await log.addMovie({
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
})
const { movies } = await log.listMovies({ sort: '-screenedDate', limit: 20 })
// #endregion snippet
console.log(movies)
