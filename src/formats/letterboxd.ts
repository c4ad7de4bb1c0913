/** The log as Letterboxd's import CSV: `Title,Year,imdbID,WatchedDate,Rating,Tags,Review`. */
import type { Movie } from '../core/movie'
import { csvLines } from './movie-csv'

const IMDB_ID = /\/title\/(tt\d+)/

/** The header line of Letterboxd's CSV. */
export const letterboxdHeader = (): string =>
  csvLines([['Title', 'Year', 'imdbID', 'WatchedDate', 'Rating', 'Tags', 'Review']])

/**
 * Movies as lines of Letterboxd's CSV: the day watched, the IMDb id when the link has one, the
 * rating on Letterboxd's scale (0.5 to 5 in halves: 7 is 3.5), the tags joined by commas.
 */
export function letterboxdLines(movies: readonly Movie[]): string {
  if (movies.length === 0) return ''
  return csvLines(
    movies.map((movie) => [
      movie.title,
      movie.releaseYear,
      IMDB_ID.exec(movie.imdbLink)?.[1] ?? '',
      movie.screenedDate.slice(0, 10),
      movie.rating === undefined ? '' : movie.rating / 2,
      movie.tags?.join(', ') ?? '',
      movie.notes,
    ]),
  )
}
