/**
 * Trakt's ratings, as the export tools write them: JSON as Trakt's API answers `/sync/ratings`
 * (`[{ rated_at, rating, type: "movie", movie: { title, year, ids: { trakt, slug, imdb, tmdb } } }]`)
 * and CSV with the history CSV's columns and the rating (`rated_at,type,title,year,rating,
 * trakt_rating,trakt_id,imdb_id,tmdb_id,...`). Movies only: shows, seasons and episodes are
 * passed over. A rating is of a movie, not of a screening: it rates the diary's latest entry of
 * that movie (import-ratings.ts).
 */

import type { ValidationIssue } from '../core/errors'
import { checkRating } from '../core/rating-tags'
import { cellOf, imdbLinkOf, yearOf } from './history'

/** One rated movie: its IMDb link when Trakt gave one, else its title and year to match. */
export interface RatedMovie {
  title: string
  releaseYear: number | undefined
  imdbLink: string | undefined
  /** 1 to 10, Trakt's scale and the log's. */
  rating: number
}

/**
 * A ratings row read: a rated movie, one refused with `issues` naming Trakt's field, or one
 * passed over (a show, a season, an episode).
 *
 * @example
 * ```ts
 * const rows: RatingRow[] = [{ line: 2, rated: { title: 'Heat', releaseYear: 1995, imdbLink: undefined, rating: 9 } }]
 * ```
 */
export type RatingRow =
  | { line: number; rated: RatedMovie }
  | { line: number; issues: ValidationIssue[] }
  | { line: number; passedOver: 'episode' }

/**
 * Whether a CSV header is Trakt's ratings export.
 *
 * @example
 * ```ts
 * isTraktRatingsHeader(['rated_at', 'type', 'title', 'year', 'rating', 'imdb_id']) // true
 * ```
 */
export const isTraktRatingsHeader = (header: readonly string[]): boolean =>
  ['rated_at', 'rating', 'type', 'title', 'imdb_id'].every((column) => header.includes(column))

/**
 * Whether the start of a Trakt JSON export is its ratings (its items have `rated_at` and no
 * `watched_at`) rather than its history.
 *
 * @example
 * ```ts
 * isTraktRatingsJson('[{"rated_at":"2024-05-01T18:30:00.000Z","rating":9') // true
 * ```
 */
export const isTraktRatingsJson = (head: string): boolean =>
  /"rated_at"\s*:/.test(head) && !/"watched_at"\s*:/.test(head)

interface Rating {
  type: string
  title: string
  year: number | undefined
  imdb: string
  rating: string | number
}

function ratingRow({ type, title, year, imdb, rating }: Rating, line: number): RatingRow {
  if (type !== 'movie') return { line, passedOver: 'episode' }
  const issues: ValidationIssue[] = []
  const value = typeof rating === 'number' ? rating : /^\d+$/.test(rating) ? Number(rating) : NaN
  const problem = checkRating(value)
  if (problem !== true) issues.push({ path: 'rating', message: 'must be a whole number 1 to 10' })
  if (title === '') issues.push({ path: 'title', message: 'is empty' })
  if (issues.length > 0) return { line, issues }
  return { line, rated: { title, releaseYear: year, imdbLink: imdbLinkOf(imdb), rating: value } }
}

/**
 * A record of Trakt's ratings CSV as a rated movie; a show, season or episode is passed over.
 *
 * @example
 * ```ts
 * traktRatingsCsvRow(header, record, 2)
 * ```
 */
export function traktRatingsCsvRow(
  header: readonly string[],
  record: readonly string[],
  line: number,
): RatingRow {
  const cell = cellOf(header, record)
  return ratingRow(
    {
      type: cell('type'),
      title: cell('title'),
      year: yearOf(cell('year')),
      imdb: cell('imdb_id'),
      rating: cell('rating'),
    },
    line,
  )
}

/**
 * Trakt's ratings JSON (an array) as rated movies, `line` each item's place from 1.
 *
 * @example
 * ```ts
 * traktRatingsJson(JSON.parse(text))
 * ```
 */
export function traktRatingsJson(items: readonly unknown[]): RatingRow[] {
  return items.map((item, index): RatingRow => {
    const line = index + 1
    const entry = (item ?? {}) as Record<string, unknown>
    if (typeof entry.rated_at !== 'string') {
      return { line, issues: [{ path: 'rated_at', message: 'is missing: not a Trakt rating' }] }
    }
    const movie = (entry.movie ?? {}) as Record<string, unknown>
    const ids = (movie.ids ?? {}) as Record<string, unknown>
    const text = (value: unknown) =>
      typeof value === 'string' || typeof value === 'number' ? String(value) : ''
    const rating = typeof entry.rating === 'number' ? entry.rating : text(entry.rating)
    const fields = {
      type: text(entry.type),
      title: text(movie.title).trim(),
      year: yearOf(text(movie.year)),
      imdb: text(ids.imdb),
      rating,
    }
    return ratingRow(fields, line)
  })
}
