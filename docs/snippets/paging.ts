import { createMovieLog, type Movie } from 'movie-log'

const log = createMovieLog()
declare function render(movies: Movie[]): void

// #region snippet
let cursor: string | null = null
do {
  const page = await log.listMovies({ limit: 50, cursor })
  render(page.movies)
  cursor = page.nextCursor // null after the last page
} while (cursor)
// #endregion snippet
