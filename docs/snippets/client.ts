declare const token: string

// #region snippet
import { createMovieLogClient, MovieValidationError } from 'movie-log/client'

const log = createMovieLogClient('https://example.org/movies', {
  headers: { authorization: `Bearer ${token}` }, // sent with every request
  retries: 6, // default
  timeoutMs: 10_000, // per attempt, default
})
try {
  await log.addMovie({
    title: 'Heat',
    screenedDate: '2024-05-01T20:30:00.000',
    releaseYear: 1995,
    imdbLink: 'https://www.imdb.com/title/tt0113277/',
  })
} catch (error) {
  if (MovieValidationError.is(error)) console.table(error.issues) // the issues the server found
}
const { movies } = await log.listMovies() // every movie: the pages are walked for you
// #endregion snippet
console.log(movies)
