import { createMovieLog, type NewMovie } from 'movie-log'

const log = createMovieLog()
declare const input: NewMovie

// #region snippet
import { MovieValidationError } from 'movie-log'

try {
  await log.addMovie(input)
} catch (error) {
  if (MovieValidationError.is(error)) console.table(error.issues)
  // [{ path: 'releaseYear', message: 'must be from 1870 to 9999' }, …]
}
// #endregion snippet
