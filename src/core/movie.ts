import { MovieValidationError, NOT_A_JSON_OBJECT, type ValidationIssue } from './errors'
import {
  checkImdbLink,
  checkNotes,
  checkReleaseYear,
  checkScreenedDate,
  checkTitle,
  FIELD_NAMES,
  FIELDS,
} from './fields'
import { checkRating, checkTags, cleanTags, trimmedTags } from './rating-tags'
import { coerce, define, optional, type Struct, type, unknown, validate } from './superstruct'

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
  /** 1-10 (five stars with halves: 7 is three and a half); absent when not rated. */
  rating?: number
  /** Up to 20 labels, in the order given, no two alike (case and accents ignored); absent when none. */
  tags?: string[]
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
  rating?: number
  tags?: string[]
}

// Titles are trimmed before they are checked.
const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value)

// Only structs that never print the value they check: superstruct's own messages put it in a
// template string, which throws on JSON like {"toString": []}. So `type` with unknown keys
// reported here rather than `object`, and `unknown` as the title's coercion guard.
export const fieldStructs = {
  title: coerce(define<string>('title', checkTitle), unknown(), trimmed),
  screenedDate: define<string>('screenedDate', checkScreenedDate),
  releaseYear: define<number>('releaseYear', checkReleaseYear),
  imdbLink: define<string>('imdbLink', checkImdbLink),
  notes: define<string>('notes', checkNotes),
  rating: define<number>('rating', checkRating),
  tags: coerce(define<string[]>('tags', checkTags), unknown(), trimmedTags),
}

type Fields = Omit<Movie, 'id'>

const newMovie: Struct<Omit<Fields, 'notes'> & { notes?: string }> = type({
  ...fieldStructs,
  notes: optional(fieldStructs.notes),
  rating: optional(fieldStructs.rating),
  tags: optional(fieldStructs.tags),
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
    else if ((key === 'rating' || key === 'tags') && input[key] === undefined) continue
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
  return withExtras(
    {
      title: value.title,
      screenedDate: value.screenedDate,
      releaseYear: value.releaseYear,
      imdbLink: value.imdbLink,
      notes: value.notes ?? '',
    },
    value.rating,
    value.tags && cleanTags(value.tags),
  )
}

/**
 * `fields` with a rating and tags, each only when there is one: a movie without them has
 * neither key, and so the very text and version tag it had before they existed.
 */
export function withExtras<T extends Omit<Fields, 'rating' | 'tags'>>(
  fields: T,
  rating: number | undefined,
  tags: string[] | undefined,
): T & Pick<Movie, 'rating' | 'tags'> {
  const movie: T & Pick<Movie, 'rating' | 'tags'> = fields
  if (rating !== undefined) movie.rating = rating
  if (tags !== undefined) movie.tags = tags
  return movie
}

/** Renames `catalogLink` to `imdbLink` on a copy of `input`, with an issue when both differ. */
export function resolveLinkAlias(input: Record<string, unknown>) {
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

/** An issue for each key that is not a movie field. */
export function unknownFieldIssues(keys: string[]): ValidationIssue[] {
  const unknownKeys = keys.filter((key) => !FIELD_NAMES.has(key))
  const named = unknownKeys.slice(0, UNKNOWN_FIELDS_NAMED)
  const message = `is not a movie field (the fields are ${FIELDS.join(', ')}; catalogLink is accepted for imdbLink)`
  const issues = named.map((path) => ({ path, message }))
  const more = unknownKeys.length - named.length
  const last = issues.at(-1)
  if (last && more > 0) last.message += `; ${more} more unknown field(s) not listed`
  return issues
}

/** Whether two movies hold the same fields: what a compare-and-set compares. */
export function sameMovie(a: Movie, b: Movie): boolean {
  return (
    a.id === b.id &&
    a.title === b.title &&
    a.screenedDate === b.screenedDate &&
    a.releaseYear === b.releaseYear &&
    a.imdbLink === b.imdbLink &&
    a.notes === b.notes &&
    a.rating === b.rating &&
    sameTags(a.tags, b.tags)
  )
}

function sameTags(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  if (a === b) return true
  if (!a || !b || a.length !== b.length) return false
  return a.every((tag, index) => tag === b[index])
}
