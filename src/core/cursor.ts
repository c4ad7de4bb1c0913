import { InvalidPageRequestError } from './errors'

const CURSOR_PREFIX = 'movie-log/1:'
const BASE64URL = /^[A-Za-z0-9_-]+$/

/** An opaque cursor that resumes a listing after the movie with this id. */
export function encodeCursor(id: string): string {
  return Buffer.from(CURSOR_PREFIX + id).toString('base64url')
}

/** The id a cursor resumes after; throws `InvalidPageRequestError` for a cursor not made here. */
export function decodeCursor(cursor: string): string {
  const decoded = BASE64URL.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : ''
  const id = decoded.startsWith(CURSOR_PREFIX) ? decoded.slice(CURSOR_PREFIX.length) : ''
  if (!id || encodeCursor(id) !== cursor) {
    throw new InvalidPageRequestError([
      { path: 'cursor', message: 'is not a cursor from this movie log (use nextCursor as given)' },
    ])
  }
  return id
}
