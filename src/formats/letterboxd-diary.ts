/**
 * Letterboxd's export (`diary.csv`: `Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched
 * Date`; `reviews.csv` the same with `Review`) as screenings.
 */
import type { ValidationIssue } from '../core/errors'
import { cellOf, type HistoryRow, yearOf } from './history'

const DAY = /^\d{4}-\d{2}-\d{2}$/

/**
 * Whether a CSV header is Letterboxd's diary (or its reviews, which have the same columns).
 *
 * @example
 * ```ts
 * isLetterboxdDiaryHeader(['Date', 'Name', 'Year', 'Letterboxd URI', 'Rating', 'Rewatch', 'Tags', 'Watched Date']) // true
 * ```
 */
export const isLetterboxdDiaryHeader = (header: readonly string[]): boolean =>
  ['Name', 'Year', 'Letterboxd URI', 'Watched Date'].every((column) => header.includes(column))

// A review names its diary entry by the entry's URI; the film, year and day as well, in case an
// export gives the two files different links for one entry.
const keysOf = (cell: (column: string) => string) => [
  cell('Letterboxd URI'),
  `${cell('Name')}\u0000${cell('Year')}\u0000${cell('Watched Date') || cell('Date')}`,
]

/**
 * `reviews.csv` (its header first) as the review of each diary entry, looked up by
 * `letterboxdScreening`.
 *
 * @example
 * ```ts
 * const reviews = letterboxdReviews([header, ...records])
 * ```
 */
export function letterboxdReviews(records: readonly string[][]): Map<string, string> {
  const reviews = new Map<string, string>()
  const [header = [], ...rows] = records
  for (const record of rows) {
    const cell = cellOf(header, record)
    const review = cell('Review')
    if (review === '') continue
    for (const key of keysOf(cell)) if (key && !reviews.has(key)) reviews.set(key, review)
  }
  return reviews
}

/**
 * A diary entry as a screening: the watched date at midnight, the rating (0.5 to 5 stars) doubled
 * to 1 to 10, the tags Letterboxd joins with commas, the entry's review as notes. Letterboxd
 * gives no IMDb id: the catalog finds it.
 *
 * @example
 * ```ts
 * letterboxdScreening(header, record, 2, new Map())
 * ```
 */
export function letterboxdScreening(
  header: readonly string[],
  record: readonly string[],
  line: number,
  reviews: ReadonlyMap<string, string>,
): HistoryRow {
  const cell = cellOf(header, record)
  const issues: ValidationIssue[] = []
  const day = cell('Watched Date') || cell('Date')
  if (!DAY.test(day)) issues.push({ path: 'Watched Date', message: 'must be a day, YYYY-MM-DD' })
  const stars = cell('Rating')
  const rating = stars === '' ? undefined : Number(stars) * 2
  if (rating !== undefined && !(Number.isInteger(rating) && rating >= 1 && rating <= 10)) {
    issues.push({ path: 'Rating', message: 'must be 0.5 to 5 stars, in halves' })
  }
  if (cell('Name') === '') issues.push({ path: 'Name', message: 'is empty' })
  if (issues.length > 0) return { line, issues }
  const tags = cell('Tags')
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '')
  const [uri = '', film = ''] = keysOf(cell)
  return {
    line,
    screening: {
      source: `letterboxd:${uri || film}`,
      title: cell('Name'),
      releaseYear: yearOf(cell('Year')),
      imdbLink: undefined,
      screenedDate: `${day}T00:00:00.000`,
      notes: reviews.get(uri) ?? reviews.get(film) ?? '',
      ...(rating === undefined ? {} : { rating }),
      ...(tags.length === 0 ? {} : { tags }),
    },
  }
}
