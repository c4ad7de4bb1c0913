import { createMovieLogClient, type Movie } from 'movie-log/client'

const log = createMovieLogClient('https://example.org/movies')
declare const movie: Movie
declare function showLatest(movie: Movie | undefined): void

// #region snippet
import { PreconditionFailedError, versionOf } from 'movie-log/client'

try {
  await log.updateMovie(movie.id, { notes: 'Seen twice' }, { ifMatch: versionOf(movie) })
} catch (error) {
  if (PreconditionFailedError.is(error)) showLatest(await log.getMovie(movie.id)) // 412
}
// #endregion snippet
