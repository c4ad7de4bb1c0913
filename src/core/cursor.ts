import { bytesToBase64Url, fromBase64Url, toBase64Url } from './base64url'
import { InvalidPageRequestError } from './errors'
import { checkScreenedDate } from './fields'
import type { Listing, MovieSort } from './range'
import { SORTS } from './range'
import { TAGS_MAX } from './rating-tags'
import { Q_MAX } from './words'

/** Where a listing resumes: after this movie, in its listing's order. */
export interface Position {
  listing: Listing
  id: string
  /** The movie's screenedDate: where a date-sorted listing resumes. */
  date: string
}

const CURSOR_PREFIX = 'movie-log/3:'
const BASE64URL = /^[A-Za-z0-9_-]+$/
// Every id a log makes, its own UUIDv7s and a caller's generator's (core/import-id.ts).
const ID = /^[\x21-\x7e]{1,200}$/
// The end of a period named by its month or year: day 31 bounds every day of any month.
const MONTH_END = /^(\d{4}-\d{2})-31T23:59:59\.999$/
// The bytes of the HMAC a cursor carries: 128 bits, as many as a forger would have to guess.
const SIGNATURE_BYTES = 16

/** The key a log's cursors are signed with (`cursorKeyOf`), fetched only when one is needed. */
export type CursorKeyRead = () => Promise<CryptoKey>

/**
 * An opaque cursor that resumes a listing, its order and bounds, after a movie: the position,
 * then its HMAC under the log's key, so a cursor the log did not make (edited, forged) is told
 * on every store and runtime.
 */
export async function encodeCursor(
  { listing, id, date }: Position,
  key: CryptoKey,
): Promise<string> {
  const fields: unknown[] = [listing.sort, listing.from, listing.to, id, date]
  // A tag filter after q, or after a null where there is none: a cursor of a listing without
  // tags is the very cursor it was before tags existed.
  if (listing.q !== undefined || listing.tags) fields.push(listing.q ?? null)
  if (listing.tags) fields.push(listing.tags)
  const payload = toBase64Url(CURSOR_PREFIX + JSON.stringify(fields))
  return `${payload}.${await signatureOf(payload, key)}`
}

/**
 * The position a cursor resumes at; throws `InvalidPageRequestError` for one not made here.
 * Its signature is checked (against the log's key, read again once when it does not match:
 * another process may have made a new one, after a drop), and every field for the shape
 * `encodeCursor` gives it. (Cursors of earlier versions, `movie-log/1:` and `/2:`, unsigned,
 * are refused too.)
 */
export async function decodeCursor(cursor: string, keys: CursorKeyRead[]): Promise<Position> {
  const [payload = '', signature = '', ...rest] = cursor.split('.')
  const decoded = BASE64URL.test(payload) ? (fromBase64Url(payload) ?? '') : ''
  const position = fromFields(decoded)
  const wellFormed = position && rest.length === 0 && toBase64Url(decoded) === payload
  if (wellFormed && (await signedBy(payload, signature, keys))) return position
  throw new InvalidPageRequestError([
    { path: 'cursor', message: 'is not a cursor from this movie log (use nextCursor as given)' },
  ])
}

async function signedBy(payload: string, signature: string, keys: CursorKeyRead[]) {
  for (const key of keys) {
    if (equal(signature, await signatureOf(payload, await key()))) return true
  }
  return false
}

async function signatureOf(payload: string, key: CryptoKey): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(payload))
  return bytesToBase64Url(new Uint8Array(mac, 0, SIGNATURE_BYTES))
}

// Compared in time that does not depend on where they differ.
function equal(a: string, b: string): boolean {
  let differ = a.length ^ b.length
  for (let i = 0; i < b.length; i++) differ |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return differ === 0
}

function fromFields(decoded: string): Position | undefined {
  if (!decoded.startsWith(CURSOR_PREFIX)) return undefined
  let fields: unknown
  try {
    fields = JSON.parse(decoded.slice(CURSOR_PREFIX.length))
  } catch {
    return undefined
  }
  if (!Array.isArray(fields) || fields.length < 5 || fields.length > 7) return undefined
  if (!fields.slice(0, 5).every((field) => typeof field === 'string')) return undefined
  const [sort, from, to, id, date, q, tags] = fields as [
    string,
    string,
    string,
    string,
    string,
    unknown?,
    unknown?,
  ]
  if (q !== undefined && !(typeof q === 'string' && q.length <= Q_MAX) && !(q === null && tags)) {
    return undefined
  }
  if (tags !== undefined && !isTagTerms(tags)) return undefined
  if (!SORTS.includes(sort as MovieSort) || !ID.test(id)) return undefined
  if (!isTime(from) || !(isTime(to) || isTime(to.replace(MONTH_END, '$1-01T00:00:00.000')))) {
    return undefined
  }
  if (!isTime(date)) return undefined
  const listing: Listing = { sort: sort as MovieSort, from, to }
  if (typeof q === 'string') listing.q = q
  if (tags !== undefined) listing.tags = tags as string[]
  return { listing, id, date }
}

// What `tagTermsOf` gives: at most 20 terms, sorted, each once. (The signature already says the
// log made it; this keeps a cursor of another version from reading as a tag filter.)
function isTagTerms(tags: unknown): boolean {
  if (!Array.isArray(tags) || tags.length === 0 || tags.length > TAGS_MAX) return false
  return tags.every(
    (tag, index) =>
      typeof tag === 'string' &&
      tag.startsWith('#') &&
      tag.endsWith(',,') &&
      (index === 0 || (tags[index - 1] as string) < tag),
  )
}

// A full local timestamp, a real date and time, as listings and movies carry them.
const isTime = (text: string) => checkScreenedDate(text) === true
