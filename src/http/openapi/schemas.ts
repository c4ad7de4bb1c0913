/** The JSON Schemas of the OpenAPI document, written from the constants the field rules use. */
import { STORE_FAILURE_REASONS } from '../../core/errors'
import {
  BIDI_CONTROL,
  CONTROL_IN_NOTES,
  CONTROL_IN_TITLE,
  LINK_MAX_LENGTH,
  NOTES_MAX_LENGTH,
  RELEASE_YEAR_MAX,
  RELEASE_YEAR_MIN,
  TITLE_MAX_LENGTH,
  UNSAFE_IN_LINK,
} from '../../core/fields'
import { type JsonSchema, schemaRef } from './components'
import { byRating, rating, removable, tagCounts, tags } from './rating-tags'

/** The inside of a one-class regex (`[a-z]` -> `a-z`), to build other classes from it. */
function classBody(pattern: RegExp): string {
  const body = /^\[([^\]]+)\]$/.exec(pattern.source)?.[1]
  if (body === undefined) throw new Error(`${pattern} is not a single character class`)
  return body
}

const titleRefused = classBody(CONTROL_IN_TITLE) + classBody(BIDI_CONTROL)
const notesRefused = classBody(CONTROL_IN_NOTES) + classBody(BIDI_CONTROL)

// A title with its surrounding white space, as the log trims it (JavaScript's \s is exactly what
// String#trim removes): 1 to TITLE_MAX_LENGTH characters in between, none of them refused.
const SENT_TITLE = `^\\s*[^\\s${titleRefused}](?:[^${titleRefused}]{0,${TITLE_MAX_LENGTH - 2}}[^\\s${titleRefused}])?\\s*$`
const STORED_TITLE = `^[^\\s${titleRefused}](?:[^${titleRefused}]*[^\\s${titleRefused}])?$`
const NOTES = `^[^${notesRefused}]*$`
// A real calendar date (leap years included) and a time of day, with no UTC offset.
const LEAP_YEAR = '(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)'
const MONTH_DAY =
  '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))'
const LOCAL_DATE_TIME = `^(?:\\d{4}-${MONTH_DAY}|${LEAP_YEAR}-02-29)T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d\\.\\d{3}$`
// What a pattern can say of a link: https:, no white space or control character. The host
// (imdb.com or a subdomain) and the absence of a user name are checked by parsing it.
const LINK = `^[hH][tT][tT][pP][sS]:[^${classBody(UNSAFE_IN_LINK)}]*$`

const link: JsonSchema = {
  type: 'string',
  maxLength: LINK_MAX_LENGTH,
  pattern: LINK,
  description:
    'An absolute https: URL whose host is imdb.com or one of its subdomains, with no user name or password.',
  examples: ['https://www.imdb.com/title/tt0113277/'],
}

export const screenedDate: JsonSchema = {
  type: 'string',
  pattern: LOCAL_DATE_TIME,
  description:
    'Local date and time of the screening, YYYY-MM-DDThh:mm:ss.SSS: a real calendar date and time, with no UTC offset.',
  examples: ['2024-05-01T20:30:00.000'],
}

export const releaseYear: JsonSchema = {
  type: 'integer',
  minimum: RELEASE_YEAR_MIN,
  maximum: RELEASE_YEAR_MAX,
  examples: [1995],
}

export const notes = (description: string): JsonSchema => ({
  type: 'string',
  maxLength: NOTES_MAX_LENGTH,
  pattern: NOTES,
  description: `${description} Line breaks and tabs are allowed; other control characters and bidirectional override or isolate characters are not.`,
})

const movie: JsonSchema = {
  type: 'object',
  description:
    'A movie in the log: these six fields, and `rating` and `tags` when it has them (absent otherwise).',
  required: ['id', 'title', 'screenedDate', 'releaseYear', 'imdbLink', 'notes'],
  additionalProperties: false,
  properties: {
    id: {
      type: 'string',
      description:
        'Assigned by the log: a UUIDv7 by default, sortable in the order movies were added.',
    },
    title: {
      type: 'string',
      minLength: 1,
      maxLength: TITLE_MAX_LENGTH,
      pattern: STORED_TITLE,
      description:
        'Trimmed; no control characters and no bidirectional override or isolate characters.',
    },
    screenedDate,
    releaseYear,
    imdbLink: schemaRef('ImdbLink'),
    notes: notes('Free text.'),
    rating,
    tags,
  },
}

const newMovie: JsonSchema = {
  type: 'object',
  description:
    'A movie to add. `catalogLink` is another name for `imdbLink` (both given: the same value). Any other field is refused.',
  required: ['title', 'screenedDate', 'releaseYear'],
  // imdbLink, unless catalogLink stands in for it. Said without a `required: ['catalogLink']`,
  // which contract testers (Portman) read as a field that must be sent.
  if: { properties: { catalogLink: false } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, never awaited
  then: { properties: { imdbLink: schemaRef('ImdbLink') }, required: ['imdbLink'] },
  additionalProperties: false,
  properties: {
    title: {
      type: 'string',
      pattern: SENT_TITLE,
      description: `Surrounding white space is trimmed; then 1 to ${TITLE_MAX_LENGTH} characters, with no control characters and no bidirectional override or isolate characters.`,
      examples: ['Heat'],
    },
    screenedDate,
    releaseYear,
    imdbLink: schemaRef('ImdbLink'),
    catalogLink: { description: 'Another name for imdbLink.', allOf: [schemaRef('ImdbLink')] },
    notes: notes('Free text; omitted means "".'),
    rating,
    tags,
  },
}

const movieChanges: JsonSchema = {
  type: 'object',
  description:
    'Changes to a movie: any of its fields, by the rules of an add (`{}` changes nothing). `catalogLink` is another name for `imdbLink`. `null` removes the rating or the tags (a JSON merge patch); `id`, any other field and `null` for another field are refused.',
  additionalProperties: false,
  properties: {
    title: (newMovie.properties as JsonSchema).title,
    screenedDate,
    releaseYear,
    imdbLink: schemaRef('ImdbLink'),
    catalogLink: { description: 'Another name for imdbLink.', allOf: [schemaRef('ImdbLink')] },
    notes: notes('Free text.'),
    rating: removable(rating),
    tags: removable(tags),
  },
}

const problem: JsonSchema = {
  type: 'object',
  description: 'RFC 9457 problem details.',
  required: ['type', 'title', 'status', 'detail'],
  additionalProperties: false,
  properties: {
    type: {
      type: 'string',
      description:
        '`about:blank` for plain HTTP failures, `urn:movie-log:problem:<slug>` for the log’s own.',
      examples: ['urn:movie-log:problem:invalid-movie'],
    },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string' },
    errors: {
      type: 'array',
      description: 'One entry per problem found: a body field (pointer) or a query parameter.',
      items: {
        type: 'object',
        required: ['detail'],
        additionalProperties: false,
        properties: {
          pointer: {
            type: 'string',
            description:
              'JSON Pointer into the request body, e.g. `/releaseYear`; `` for the body itself.',
          },
          parameter: { type: 'string', description: 'The query parameter, e.g. `limit`.' },
          detail: { type: 'string' },
        },
      },
    },
    reason: {
      description: 'In a 503 from the store: why it failed, one stable word.',
      enum: [...STORE_FAILURE_REASONS],
    },
    mayHaveLanded: {
      description:
        'In a 503 to a write that timed out: the change may still be stored. Retry it only with the same `Idempotency-Key`, or after reading the log.',
      const: true,
    },
  },
}

const counts = (keys: string, example: Record<string, number>): JsonSchema => ({
  type: 'object',
  propertyNames: { pattern: keys },
  additionalProperties: { type: 'integer', minimum: 1 },
  examples: [example],
})

const fixedCounts = (length: number, description: string): JsonSchema => ({
  type: 'array',
  description,
  items: { type: 'integer', minimum: 0 },
  minItems: length,
  maxItems: length,
})

// `log.stats()`: counts by screenedDate, kept with the movies.
const movieStats: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'total',
    'byYear',
    'byMonth',
    'byWeekday',
    'byHour',
    'byReleaseDecade',
    'rewatched',
    'byRating',
    'tags',
  ],
  properties: {
    total: { type: 'integer', minimum: 0 },
    byYear: counts('^[0-9]{4}$', { '2024': 12 }),
    byMonth: counts('^[0-9]{4}-[0-9]{2}$', { '2024-05': 3 }),
    byWeekday: fixedCounts(7, 'Seven counts, Monday first.'),
    byHour: fixedCounts(24, 'Twenty-four counts, from hour 0.'),
    byReleaseDecade: counts('^[0-9]{4}$', { '1990': 4 }),
    rewatched: {
      type: 'array',
      description:
        'Movies (by imdbLink) screened more than once in the months counted, most first; the title is the one logged most often.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['imdbLink', 'title', 'count'],
        properties: {
          imdbLink: { type: 'string' },
          title: { type: 'string' },
          count: { type: 'integer', minimum: 2 },
        },
      },
    },
    byRating,
    tags: tagCounts,
  },
}

/** `components.schemas` of the document. */
export const SCHEMAS: Record<string, JsonSchema> = {
  Movie: movie,
  ImdbLink: link,
  NewMovie: newMovie,
  MovieChanges: movieChanges,
  MovieStats: movieStats,
  Problem: problem,
}
