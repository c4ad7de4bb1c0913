/** IMDb's ratings export (`Const,Your Rating,Date Rated,Title,...,URL,...,Year,...`) as import rows. */
import type { ValidationIssue } from '../core/errors'

/** Whether a CSV header is IMDb's ratings export. */
export const isImdbHeader = (header: readonly string[]): boolean =>
  header.includes('Const') && header.includes('Date Rated') && header.includes('URL')

const DAY = /^\d{4}-\d{2}-\d{2}$/
const RATING = /^(?:[1-9]|10)$/

/**
 * One record of IMDb's export as a movie: `URL` the imdbLink, `Title`, `Year` the release year,
 * `Date Rated` the screening at midnight, `Your Rating` (1-10, IMDb's scale and ours) the rating.
 * A row without a URL, a year or a date is refused, naming IMDb's column.
 */
export function movieFromImdb(
  header: readonly string[],
  record: readonly string[],
): { movie?: Record<string, unknown>; issues?: ValidationIssue[] } {
  const cell = (column: string) => (record[header.indexOf(column)] ?? '').trim()
  const issues: ValidationIssue[] = []
  const [url, year, rated] = [cell('URL'), cell('Year'), cell('Date Rated')]
  if (url === '') issues.push({ path: 'URL', message: 'is empty: IMDb gave no link for this row' })
  if (year === '')
    issues.push({ path: 'Year', message: 'is empty: IMDb gave no year for this row' })
  else if (!/^\d{4}$/.test(year)) issues.push({ path: 'Year', message: 'must be a year like 1995' })
  if (!DAY.test(rated)) issues.push({ path: 'Date Rated', message: 'must be a day, YYYY-MM-DD' })
  const rating = cell('Your Rating')
  if (rating !== '' && !RATING.test(rating)) {
    issues.push({ path: 'Your Rating', message: 'must be a whole number from 1 to 10' })
  }
  if (issues.length > 0) return { issues }
  const movie: Record<string, unknown> = {
    title: cell('Title'),
    screenedDate: `${rated}T00:00:00.000`,
    releaseYear: Number(year),
    imdbLink: url,
  }
  if (rating !== '') movie.rating = Number(rating)
  return { movie }
}
