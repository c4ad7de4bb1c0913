import type { MovieLogStore, NewMovie } from 'movie-log'

declare const store: MovieLogStore
declare const movies: NewMovie[]

// #region snippet
import { createMovieLog, importMovies } from 'movie-log'

const log = createMovieLog(store)
const rows = movies.map((movie, index) => ({ line: index + 1, movie }))
const { added, skipped, refused } = await importMovies(log, rows) // rows may be an async iterable
for (const row of refused) console.error(`line ${row.line}:`, row.issues) // as MovieValidationError's
// #endregion snippet
console.log(added, skipped)
