// #region snippet
import { createMovieLog } from 'movie-log'

const log = createMovieLog() // in memory

const movie = await log.addMovie({
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000', // local time, with milliseconds
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
  notes: 'The diner scene.', // optional, '' by default
})
// { id: '0196…', title: 'Heat', screenedDate: '2024-05-01T20:30:00.000', releaseYear: 1995,
//   imdbLink: 'https://www.imdb.com/title/tt0113277/', notes: 'The diner scene.' }

const { movies } = await log.listMovies() // every movie, oldest added first
await log.getMovie(movie.id) // the movie, or undefined
// #endregion snippet
console.log(movies)
