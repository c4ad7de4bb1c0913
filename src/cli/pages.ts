import type { ListMoviesOptions, Movie, MovieLog } from '../index'

/** Movies read per call: one page in memory at a time, whatever the size of the log. */
export const PAGE_SIZE = 500

/** Every movie of a log, page by page, oldest added first (or as `options` sort them). */
export async function* moviePages(
  log: MovieLog,
  options: Omit<ListMoviesOptions, 'limit' | 'cursor'> = {},
): AsyncGenerator<Movie[]> {
  let cursor: string | null = null
  do {
    const page = await log.listMovies({ ...options, limit: PAGE_SIZE, cursor })
    if (page.movies.length > 0) yield page.movies
    cursor = page.nextCursor
  } while (cursor !== null)
}
