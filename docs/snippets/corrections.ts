import { createMovieLog, type Movie } from 'movie-log'

const log = createMovieLog()
declare const movie: Movie

// #region snippet
import { versionOf } from 'movie-log'

const fixed = await log.updateMovie(movie.id, { screenedDate: '2024-05-02T21:00:00.000' })

// Only if nobody changed it since it was read (`movie` is now stale: this one throws
// PreconditionFailedError; `fixed` is the version to name):
await log.updateMovie(movie.id, { notes: 'Seen twice' }, { ifMatch: versionOf(fixed) })

await log.deleteMovie(movie.id) // true; false when it was not there
// #endregion snippet
