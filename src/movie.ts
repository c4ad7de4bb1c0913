import { coerce, define, optional, type Struct, type, unknown, validate } from 'superstruct'
import { MovieValidationError, NOT_A_JSON_OBJECT, type ValidationIssue } from './errors'

/**
 * A movie in the log: exactly these six fields.
 *
 * @example
 * ```ts
 * const movie: Movie = await log.addMovie(input)
 * console.log(movie.id, movie.title, movie.imdbLink)
 * ```
 */
export interface Movie {
  /** Assigned by the log: a UUIDv7, sortable in the order movies were added. */
  id: string
  title: string
  /** Local date and time of the screening, `YYYY-MM-DDThh:mm:ss.SSS`, no UTC offset. */
  screenedDate: string
  releaseYear: number
  /** Absolute `https:` URL of the movie's IMDb entry. */
  imdbLink: string
  notes: string
}

/**
 * What `addMovie` accepts. `catalogLink` is another name for `imdbLink`; `notes` defaults to `""`.
 *
 * @example
 * ```ts
 * const heat: NewMovie = {
 *   title: 'Heat',
 *   screenedDate: '2024-05-01T20:30:00.000',
 *   releaseYear: 1995,
 *   imdbLink: 'https://www.imdb.com/title/tt0113277/',
 * }
 * ```
 */
export interface NewMovie {
  title: string
  screenedDate: string
  releaseYear: number
  imdbLink?: string
  catalogLink?: string
  notes?: string
}

export const TITLE_MAX_LENGTH = 500
export const NOTES_MAX_LENGTH = 10_000
export const LINK_MAX_LENGTH = 2048
export const RELEASE_YEAR_MIN = 1870
export const RELEASE_YEAR_MAX = 9999

const FIELDS = ['title', 'screenedDate', 'releaseYear', 'imdbLink', 'notes'] as const
const FIELD_NAMES: ReadonlySet<string> = new Set(FIELDS)
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})$/
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}(:?\d{2})?)$/i
const DATE_TIME_FORM = 'YYYY-MM-DDThh:mm:ss.SSS, e.g. 2024-05-01T20:30:00.000'
// White space or control characters: a URL parser would silently drop or encode them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
export const UNSAFE_IN_LINK = /[\s\u0000-\u001f\u007f]/
const PLAIN_HTTPS_LINK = /^https:\/\/([a-z0-9-]+(?:\.[a-z0-9-]+)*)(?:[/?#]|$)/i
const PUNYCODE_LABEL = /(?:^|\.)xn--/i
const HEX_PREFIX = /^0x/i
// The IPv4 number parser reads digits, or 0x and hex digits: a letter or hyphen elsewhere fails it.
const LETTER_OR_HYPHEN = /[a-z-]/i

// Characters that would let a stored value rewrite how a page shows it: control characters (C0,
// DEL, C1) and the bidirectional overrides and isolates (U+202E turns `gnp.exe` into `exe.png`).
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
export const CONTROL_IN_TITLE = /[\u0000-\u001f\u007f-\u009f]/
// Notes may span lines: line feeds, carriage returns and tabs are their own white space.
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above
export const CONTROL_IN_NOTES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/
export const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/

/** Why `value` cannot be shown as plain text, or `undefined` when it can. */
function unsafeText(value: string, control: RegExp): string | undefined {
  const found = control.exec(value) ?? BIDI_CONTROL.exec(value)
  if (!found) return undefined
  const kind = control.test(found[0])
    ? 'control characters'
    : 'bidirectional override or isolate characters'
  const code = (found[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')
  return `must not contain ${kind} (found U+${code} at position ${found.index + 1})`
}

// Limits count code points. A string has at least as many UTF-16 units as code points, so only
// a string longer than the limit in units needs counting.
const characters = (value: string, limit: number) =>
  value.length <= limit ? value.length : [...value].length

type Check = (value: unknown) => true | string

// The field rules, each a plain check: superstruct composes them into the schema that reports
// every failure, and the fast path below runs the very same checks.
const checkTitle: Check = (value) => {
  if (value === undefined) return 'is required'
  if (typeof value !== 'string') return 'must be a string'
  const length = characters(value, TITLE_MAX_LENGTH)
  if (length === 0) return 'must not be empty (white space alone does not count)'
  if (length > TITLE_MAX_LENGTH) {
    return `must be at most ${TITLE_MAX_LENGTH} characters (it has ${length})`
  }
  return unsafeText(value, CONTROL_IN_TITLE) ?? true
}

const checkScreenedDate: Check = (value) => {
  if (value === undefined) return 'is required'
  if (typeof value !== 'string') return `must be a string of the form ${DATE_TIME_FORM}`
  const parts = LOCAL_DATE_TIME.exec(value)
  if (parts) return calendarProblem(parts) ?? true
  if (WITH_OFFSET.test(value)) {
    return `must be local time without a UTC offset: send ${DATE_TIME_FORM}, with no 'Z' or '+hh:mm'`
  }
  return `must have the form ${DATE_TIME_FORM}`
}

const checkReleaseYear: Check = (value) => {
  if (value === undefined) return 'is required'
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return 'must be a whole number (a JSON integer, not a string)'
  }
  if (value < RELEASE_YEAR_MIN || value > RELEASE_YEAR_MAX) {
    return `must be from ${RELEASE_YEAR_MIN} to ${RELEASE_YEAR_MAX}`
  }
  return true
}

const checkImdbLink: Check = (value) => {
  if (value === undefined) return 'is required'
  if (typeof value !== 'string') return 'must be a string holding an https: URL'
  if (value.length > LINK_MAX_LENGTH) return `must be at most ${LINK_MAX_LENGTH} characters`
  if (UNSAFE_IN_LINK.test(value)) return 'must not contain white space or control characters'
  // The usual link is checked without building a URL; anything else is parsed, to say what is
  // wrong with it.
  const plainHost = plainHttpsHost(value)
  if (plainHost !== undefined) return isImdbHost(plainHost.toLowerCase()) || NOT_IMDB
  const url = parseUrl(value)
  if (!url) return 'must be an absolute URL, e.g. https://www.imdb.com/title/tt0111161/'
  if (url.protocol !== 'https:') return `must use https: (got ${url.protocol})`
  if (!url.hostname) return 'must have a host'
  if (url.username || url.password) return 'must not contain a user name or password'
  return isImdbHost(url.hostname) || NOT_IMDB
}

const NOT_IMDB = 'must be an IMDb address: its host must be imdb.com or a subdomain (www.imdb.com)'

// `host` in lower case, as the URL parser gives it.
const isImdbHost = (host: string) => host === 'imdb.com' || host.endsWith('.imdb.com')

const checkNotes: Check = (value) => {
  if (typeof value !== 'string') return 'must be a string (the empty string is fine)'
  const length = characters(value, NOTES_MAX_LENGTH)
  if (length > NOTES_MAX_LENGTH) {
    return `must be at most ${NOTES_MAX_LENGTH} characters (it has ${length})`
  }
  return unsafeText(value, CONTROL_IN_NOTES) ?? true
}

/**
 * The host of a link that surely parses as an https: URL with that host and no user name, by
 * the URL standard's rules, with no parser (which costs more than every other check of a movie):
 * a host of ASCII labels, none of them punycode (`xn--` labels are decoded, and may fail), and a
 * last label that is not a number (one is read as IPv4, and may fail), then nothing but a path,
 * query or fragment, which never fail. `undefined` leaves the link to the parser.
 */
function plainHttpsHost(link: string): string | undefined {
  const host = PLAIN_HTTPS_LINK.exec(link)?.[1]
  if (host === undefined || PUNYCODE_LABEL.test(host)) return undefined
  const last = host.slice(host.lastIndexOf('.') + 1)
  return !HEX_PREFIX.test(last) && LETTER_OR_HYPHEN.test(last) ? host : undefined
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value)
  } catch {
    return undefined
  }
}

// Titles are trimmed before they are checked.
const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value)

// Only structs that never print the value they check: superstruct's own messages put it in a
// template string, which throws on JSON like {"toString": []}. So `type` with unknown keys
// reported here rather than `object`, and `unknown` as the title's coercion guard.
const newMovie: Struct<Omit<Movie, 'id' | 'notes'> & { notes?: string }> = type({
  title: coerce(define<string>('title', checkTitle), unknown(), trimmed),
  screenedDate: define<string>('screenedDate', checkScreenedDate),
  releaseYear: define<number>('releaseYear', checkReleaseYear),
  imdbLink: define<string>('imdbLink', checkImdbLink),
  notes: optional(define<string>('notes', checkNotes)),
})

/**
 * Checks a new movie against every field rule and returns it cleaned (title trimmed, notes
 * defaulted, `catalogLink` renamed), or throws a `MovieValidationError` naming every problem.
 */
export function parseNewMovie(input: unknown): Omit<Movie, 'id'> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new MovieValidationError([{ path: '', message: NOT_A_JSON_OBJECT }])
  }
  return parseValidMovie(input as Record<string, unknown>) ?? parseWithSuperstruct(input)
}

/**
 * The common case, a valid movie with the usual fields, checked by the same rules without
 * superstruct's machinery, which costs more than the rest of an add. `undefined` for anything
 * else, which superstruct then reports on in full.
 */
function parseValidMovie(input: Record<string, unknown>): Omit<Movie, 'id'> | undefined {
  let title: unknown
  let screenedDate: unknown
  let releaseYear: unknown
  let imdbLink: unknown
  let notes: unknown = ''
  // Own enumerable fields only, as superstruct gets them (see resolveLinkAlias).
  for (const key of Object.keys(input)) {
    if (key === 'title') title = trimmed(input.title)
    else if (key === 'screenedDate') screenedDate = input.screenedDate
    else if (key === 'releaseYear') releaseYear = input.releaseYear
    else if (key === 'imdbLink') imdbLink = input.imdbLink
    else if (key === 'notes') notes = input.notes === undefined ? '' : input.notes
    else return undefined
  }
  const valid =
    checkTitle(title) === true &&
    checkScreenedDate(screenedDate) === true &&
    checkReleaseYear(releaseYear) === true &&
    checkImdbLink(imdbLink) === true &&
    checkNotes(notes) === true
  if (!valid) return undefined
  return {
    title: title as string,
    screenedDate: screenedDate as string,
    releaseYear: releaseYear as number,
    imdbLink: imdbLink as string,
    notes: notes as string,
  }
}

/** Every rule through superstruct, every failure reported. Exported for the agreement test. */
export function parseWithSuperstruct(input: object): Omit<Movie, 'id'> {
  const { fields, issues, linkSentAs } = resolveLinkAlias(input as Record<string, unknown>)
  const [error, value] = validate(fields, newMovie, { coerce: true })
  for (const failure of error?.failures() ?? []) {
    const path = failure.path.join('.')
    // Named as the client sent it: a bad catalogLink is reported as catalogLink.
    issues.push({ path: path === 'imdbLink' ? linkSentAs : path, message: failure.message })
  }
  issues.push(...unknownFieldIssues(Object.keys(fields)))
  if (issues.length > 0 || !value) throw new MovieValidationError(issues)
  return {
    title: value.title,
    screenedDate: value.screenedDate,
    releaseYear: value.releaseYear,
    imdbLink: value.imdbLink,
    notes: value.notes ?? '',
  }
}

function resolveLinkAlias(input: Record<string, unknown>) {
  // Own entries only, copied onto a fresh object: a JSON "__proto__" key stays a plain key.
  const fields: Record<string, unknown> = Object.fromEntries(Object.entries(input))
  const issues: ValidationIssue[] = []
  let linkSentAs = 'imdbLink'
  if (Object.hasOwn(fields, 'catalogLink')) {
    const alias = fields.catalogLink
    if (Object.hasOwn(fields, 'imdbLink') && fields.imdbLink !== alias) {
      issues.push({
        path: 'catalogLink',
        message: 'is another name for imdbLink: send one of them, or both with the same value',
      })
    } else {
      if (!Object.hasOwn(fields, 'imdbLink')) linkSentAs = 'catalogLink'
      fields.imdbLink = alias
    }
    delete fields.catalogLink
  }
  return { fields, issues, linkSentAs }
}

// A body of many unknown keys must not become an answer many times its size: the first few
// are named, and the last of them says how many more there are.
const UNKNOWN_FIELDS_NAMED = 10

function unknownFieldIssues(keys: string[]): ValidationIssue[] {
  const unknownKeys = keys.filter((key) => !FIELD_NAMES.has(key))
  const named = unknownKeys.slice(0, UNKNOWN_FIELDS_NAMED)
  const message = `is not a movie field (the fields are ${FIELDS.join(', ')}; catalogLink is accepted for imdbLink)`
  const issues = named.map((path) => ({ path, message }))
  const more = unknownKeys.length - named.length
  const last = issues.at(-1)
  if (last && more > 0) last.message += `; ${more} more unknown field(s) not listed`
  return issues
}

// `parts`: the matches of LOCAL_DATE_TIME, all digits.
function calendarProblem(parts: RegExpExecArray): string | undefined {
  const year = Number(parts[1])
  const month = Number(parts[2])
  const day = Number(parts[3])
  const hour = Number(parts[4])
  const minute = Number(parts[5])
  const second = Number(parts[6])
  if (month < 1 || month > 12) return 'is not a real date: the month must be 01 to 12'
  const daysInMonth = daysIn(year, month)
  if (day < 1 || day > daysInMonth) {
    return `is not a real date: that month has ${daysInMonth} days in ${String(year).padStart(4, '0')}`
  }
  if (hour > 23) return 'is not a real time: the hour must be 00 to 23'
  if (minute > 59) return 'is not a real time: the minutes must be 00 to 59'
  if (second > 59) return 'is not a real time: the seconds must be 00 to 59'
  return undefined
}

function daysIn(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
    return leap ? 29 : 28
  }
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}
