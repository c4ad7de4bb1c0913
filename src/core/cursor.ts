import { fromBase64Url, toBase64Url } from './base64url'
import { InvalidPageRequestError } from './errors'
import { checkScreenedDate } from './fields'
import type { Listing, MovieSort } from './range'
import { SORTS } from './range'
import { Q_MAX } from './words'

/** Where a listing resumes: after this movie, in its listing's order. */
export interface Position {
  listing: Listing
  id: string
  /** The movie's screenedDate: where a date-sorted listing resumes. */
  date: string
}

const CURSOR_PREFIX = 'movie-log/2:'
const BASE64URL = /^[A-Za-z0-9_-]+$/
// Every id a log makes, its own UUIDv7s and a caller's generator's (core/import-id.ts).
const ID = /^[\x21-\x7e]{1,200}$/
// The end of a period named by its month or year: day 31 bounds every day of any month.
const MONTH_END = /^(\d{4}-\d{2})-31T23:59:59\.999$/

/** An opaque cursor that resumes a listing, its order and bounds, after a movie. */
export function encodeCursor({ listing, id, date }: Position): string {
  const fields = [listing.sort, listing.from, listing.to, id, date]
  if (listing.q !== undefined) fields.push(listing.q)
  return toBase64Url(CURSOR_PREFIX + JSON.stringify(fields))
}

/**
 * The position a cursor resumes at; throws `InvalidPageRequestError` for one not made here.
 * Every field is checked for the shape `encodeCursor` gives it, so a forged or edited cursor is
 * refused the same way on every store, never read by each store's own rules. (Cursors of the
 * first version, `movie-log/1:`, are refused too: they carried an id and nothing to check.)
 */
export function decodeCursor(cursor: string): Position {
  const decoded = BASE64URL.test(cursor) ? (fromBase64Url(cursor) ?? '') : ''
  const position = fromFields(decoded)
  if (!position || toBase64Url(decoded) !== cursor) {
    throw new InvalidPageRequestError([
      { path: 'cursor', message: 'is not a cursor from this movie log (use nextCursor as given)' },
    ])
  }
  return position
}

function fromFields(decoded: string): Position | undefined {
  if (!decoded.startsWith(CURSOR_PREFIX)) return undefined
  let fields: unknown
  try {
    fields = JSON.parse(decoded.slice(CURSOR_PREFIX.length))
  } catch {
    return undefined
  }
  if (!Array.isArray(fields) || (fields.length !== 5 && fields.length !== 6)) return undefined
  if (!fields.every((field) => typeof field === 'string')) return undefined
  const [sort, from, to, id, date, q] = fields as [string, string, string, string, string, string?]
  if (q !== undefined && q.length > Q_MAX) return undefined
  if (!SORTS.includes(sort as MovieSort) || !ID.test(id)) return undefined
  if (!isTime(from) || !(isTime(to) || isTime(to.replace(MONTH_END, '$1-01T00:00:00.000')))) {
    return undefined
  }
  if (!isTime(date)) return undefined
  const listing: Listing = { sort: sort as MovieSort, from, to }
  if (q !== undefined) listing.q = q
  return { listing, id, date }
}

// A full local timestamp, a real date and time, as listings and movies carry them.
const isTime = (text: string) => checkScreenedDate(text) === true
