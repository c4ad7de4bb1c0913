/** The field rules of a movie, one plain check per field (CONTRACT "The fields"). */

export const TITLE_MAX_LENGTH = 500
export const NOTES_MAX_LENGTH = 10_000
export const LINK_MAX_LENGTH = 2048
export const RELEASE_YEAR_MIN = 1870
export const RELEASE_YEAR_MAX = 9999

export const FIELDS = [
  'title',
  'screenedDate',
  'releaseYear',
  'imdbLink',
  'notes',
  'rating',
  'tags',
] as const
export const FIELD_NAMES: ReadonlySet<string> = new Set(FIELDS)
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/
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
// Either kind, in one pass: most text has neither, and is then read once, not twice.
const unsafeIn = (control: RegExp) => new RegExp(`${control.source}|${BIDI_CONTROL.source}`)
const UNSAFE_IN_TITLE = unsafeIn(CONTROL_IN_TITLE)
const UNSAFE_IN_NOTES = unsafeIn(CONTROL_IN_NOTES)

/** Why `value` cannot be shown as plain text, or `undefined` when it can. */
function unsafeText(value: string, control: RegExp, either: RegExp): string | undefined {
  if (!either.test(value)) return undefined
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

export type Check = (value: unknown) => true | string

// The field rules, each a plain check: superstruct composes them into the schema that reports
// every failure, and the fast path below runs the very same checks.
export const checkTitle: Check = (value) => {
  if (value === undefined) return 'is required'
  if (typeof value !== 'string') return 'must be a string'
  const length = characters(value, TITLE_MAX_LENGTH)
  if (length === 0) return 'must not be empty (white space alone does not count)'
  if (length > TITLE_MAX_LENGTH) {
    return `must be at most ${TITLE_MAX_LENGTH} characters (it has ${length})`
  }
  return unsafeText(value, CONTROL_IN_TITLE, UNSAFE_IN_TITLE) ?? true
}

export const checkScreenedDate: Check = (value) => {
  if (value === undefined) return 'is required'
  if (typeof value !== 'string') return `must be a string of the form ${DATE_TIME_FORM}`
  if (LOCAL_DATE_TIME.test(value)) {
    return (
      calendarProblem(
        digitsAt(value, 0, 4),
        digitsAt(value, 5, 2),
        digitsAt(value, 8, 2),
        digitsAt(value, 11, 2),
        digitsAt(value, 14, 2),
        digitsAt(value, 17, 2),
      ) ?? true
    )
  }
  if (WITH_OFFSET.test(value)) {
    return `must be local time without a UTC offset: send ${DATE_TIME_FORM}, with no 'Z' or '+hh:mm'`
  }
  return `must have the form ${DATE_TIME_FORM}`
}

export const checkReleaseYear: Check = (value) => {
  if (value === undefined) return 'is required'
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return 'must be a whole number (a JSON integer, not a string)'
  }
  if (value < RELEASE_YEAR_MIN || value > RELEASE_YEAR_MAX) {
    return `must be from ${RELEASE_YEAR_MIN} to ${RELEASE_YEAR_MAX}`
  }
  return true
}

export const checkImdbLink: Check = (value) => {
  if (value === undefined) return 'is required'
  if (typeof value !== 'string') return 'must be a string holding an https: URL'
  if (value.length > LINK_MAX_LENGTH) return `must be at most ${LINK_MAX_LENGTH} characters`
  if (UNSAFE_IN_LINK.test(value)) return 'must not contain white space or control characters'
  // The link as IMDb writes it: the answer the host check below would give, without reading it.
  if (value.startsWith(IMDB_LINK_START)) return true
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

const IMDB_LINK_START = 'https://www.imdb.com/'

const NOT_IMDB = 'must be an IMDb address: its host must be imdb.com or a subdomain (www.imdb.com)'

// `host` in lower case, as the URL parser gives it.
const isImdbHost = (host: string) => host === 'imdb.com' || host.endsWith('.imdb.com')

export const checkNotes: Check = (value) => {
  if (typeof value !== 'string') return 'must be a string (the empty string is fine)'
  const length = characters(value, NOTES_MAX_LENGTH)
  if (length > NOTES_MAX_LENGTH) {
    return `must be at most ${NOTES_MAX_LENGTH} characters (it has ${length})`
  }
  return unsafeText(value, CONTROL_IN_NOTES, UNSAFE_IN_NOTES) ?? true
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

// The parts of a date that matched LOCAL_DATE_TIME, as numbers.
function calendarProblem(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): string | undefined {
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

// The number the ASCII digits at `start` spell: a date the pattern matched, read without the
// match's array and its seven strings (an add checks one date).
function digitsAt(text: string, start: number, count: number): number {
  let number = 0
  for (let at = start; at < start + count; at++) number = number * 10 + text.charCodeAt(at) - 48
  return number
}

function daysIn(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
    return leap ? 29 : 28
  }
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31
}
