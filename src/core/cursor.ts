import { InvalidPageRequestError } from './errors'
import { FULL_RANGE, type Listing, type MovieSort, SORTS } from './range'

/** Where a listing resumes: after this movie, in its listing's order. */
export interface Position {
  listing: Listing
  id: string
  /** The movie's screenedDate: where a date-sorted listing resumes. */
  date: string
}

const CURSOR_PREFIX = 'movie-log/2:'
// Cursors of the first version: a listing oldest added first, after an id.
const FIRST_CURSOR_PREFIX = 'movie-log/1:'
const BASE64URL = /^[A-Za-z0-9_-]+$/

/** An opaque cursor that resumes a listing, its order and bounds, after a movie. */
export function encodeCursor({ listing, id, date }: Position): string {
  const fields = [listing.sort, listing.from, listing.to, id, date]
  return Buffer.from(CURSOR_PREFIX + JSON.stringify(fields)).toString('base64url')
}

/** The position a cursor resumes at; throws `InvalidPageRequestError` for one not made here. */
export function decodeCursor(cursor: string): Position {
  const decoded = BASE64URL.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : ''
  const position = decoded.startsWith(FIRST_CURSOR_PREFIX)
    ? {
        listing: { sort: 'added' as const, ...FULL_RANGE },
        id: decoded.slice(FIRST_CURSOR_PREFIX.length),
        date: '',
      }
    : fromFields(decoded)
  if (!position?.id || Buffer.from(decoded).toString('base64url') !== cursor) {
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
  if (!Array.isArray(fields) || fields.length !== 5) return undefined
  if (!fields.every((field) => typeof field === 'string')) return undefined
  const [sort, from, to, id, date] = fields as string[]
  if (!SORTS.includes(sort as MovieSort)) return undefined
  const listing = { sort: sort as MovieSort, from: from ?? '', to: to ?? '' }
  return { listing, id: id ?? '', date: date ?? '' }
}
