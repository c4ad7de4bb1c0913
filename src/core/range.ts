import { InvalidPageRequestError, type ValidationIssue } from './errors'
import { checkScreenedDate } from './fields'

/**
 * The orders `listMovies` gives: `'added'` (oldest added first), `'screenedDate'` (earliest
 * screened first) and `'-screenedDate'` (latest screened first); ties in id order, in the same
 * direction.
 */
export type MovieSort = 'added' | 'screenedDate' | '-screenedDate'

export const SORTS: readonly MovieSort[] = ['added', 'screenedDate', '-screenedDate']

/** A listing's order and its bounds on `screenedDate`, as full local timestamps, inclusive. */
export interface Listing {
  sort: MovieSort
  from: string
  to: string
  /** The search (`listMovies({ q })`) as asked, when there is one. */
  q?: string
  /** The tags asked for (`listMovies({ tag })`) as their terms (`tagTerm`), sorted, each once. */
  tags?: string[]
}

const EARLIEST = '0000-01-01T00:00:00.000'
const LATEST = '9999-12-31T23:59:59.999'
/** No bounds: every screenedDate is within. */
export const FULL_RANGE = { from: EARLIEST, to: LATEST } as const
const PERIOD = /^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}:\d{2}\.\d{3})?)?)?$/
const PERIOD_FORMS = 'YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDThh:mm:ss.SSS'

/**
 * The listing `sort`, `from` and `to` ask for, or an `InvalidPageRequestError` naming each bad
 * one. A bound names a whole period, so `to: '2024'` runs to the last millisecond of 2024.
 */
export function parseListing(sort: unknown, from: unknown, to: unknown): Listing {
  const issues: ValidationIssue[] = []
  if (sort !== undefined && !SORTS.includes(sort as MovieSort)) {
    issues.push({ path: 'sort', message: `must be one of ${SORTS.join(', ')}` })
  }
  const start = bound('from', from, 'start', issues)
  const end = bound('to', to, 'end', issues)
  if (issues.length > 0) throw new InvalidPageRequestError(issues)
  return { sort: (sort as MovieSort | undefined) ?? 'added', from: start, to: end }
}

function bound(
  path: string,
  value: unknown,
  edge: 'start' | 'end',
  issues: ValidationIssue[],
): string {
  if (value === undefined) return edge === 'start' ? EARLIEST : LATEST
  const period = typeof value === 'string' && PERIOD.test(value) ? value : undefined
  // The period's first (or last) millisecond, checked as a screenedDate is: a real date and time.
  const first = period && period + EARLIEST.slice(period.length)
  if (!period || !first || checkScreenedDate(first) !== true) {
    issues.push({ path, message: `must be a real date or time as ${PERIOD_FORMS}` })
    return ''
  }
  if (edge === 'start') return first
  // Dates compare as text: a month's day 31 bounds every day of it, even in February.
  return period + LATEST.slice(period.length)
}

/** Whether a movie screened at `date` falls within the listing's bounds. */
export function inRange(listing: Listing, date: string): boolean {
  return date >= listing.from && date <= listing.to
}
