/**
 * The reusable components of the OpenAPI document (`components.parameters`, `headers`,
 * `responses`) and the references to them; the schemas are in schemas.ts.
 */

import { TAGS_MAX } from '../../core/rating-tags'

/** A JSON Schema, or any other object of the document. */
export type JsonSchema = Record<string, unknown>

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` })
export const schemaRef = (name: string) => ref('schemas', name)
export const headerRef = (name: string) => ref('headers', name)
export const parameterRef = (name: string) => ref('parameters', name)
export const responseRef = (name: string) => ref('responses', name)

const PERIOD = '^[0-9]{4}(-[0-9]{2}(-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3})?)?)?$'

const bound = (name: 'from' | 'to', description: string): JsonSchema => ({
  name,
  in: 'query',
  description: `${description} \`YYYY\`, \`YYYY-MM\`, \`YYYY-MM-DD\` or \`YYYY-MM-DDThh:mm:ss.SSS\`, a real date; otherwise 400 naming \`${name}\`.`,
  schema: { type: 'string', pattern: PERIOD },
  examples: { year: { value: '2024' }, month: { value: '2024-06' } },
})

const month = (name: 'from' | 'to', description: string): JsonSchema => ({
  name,
  in: 'query',
  description: `${description}: \`YYYY\` (the whole year) or \`YYYY-MM\`; statistics are kept by month. Otherwise 400 naming \`${name}\`.`,
  schema: { type: 'string', pattern: '^[0-9]{4}(-(0[1-9]|1[0-2]))?$' },
  examples: { year: { value: '2024' }, month: { value: '2024-06' } },
})

export const PARAMETERS: Record<string, JsonSchema> = {
  limit: {
    name: 'limit',
    in: 'query',
    description:
      'Answer one page of at most this many movies (above the handler’s maximum, 1000 by default, it is lowered to it). Not a positive integer: 400.',
    schema: { type: 'integer', minimum: 1 },
  },
  cursor: {
    name: 'cursor',
    in: 'query',
    description:
      'Where the page starts: taken from the `Link: rel="next"` URL of the previous page. One the log did not make: 400.',
    schema: { type: 'string' },
  },
  id: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The movie’s id.',
    schema: { type: 'string' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    description:
      'Makes the add safe to retry: the same key with the same movie gives the first movie back, for 24 hours, across every server sharing the store. 1 to 255 visible ASCII characters, bare or as a structured-field string ("...").',
    schema: { type: 'string', minLength: 1 },
  },
  // Listings by date, and conditional requests on one movie.
  sort: {
    name: 'sort',
    in: 'query',
    description:
      '`added` (default: oldest added first), `screenedDate` (earliest screened first) or `-screenedDate` (latest first); ties in id order, in the same direction. Kept by the next link; another value with a cursor: 400 naming `cursor`.',
    schema: { type: 'string', enum: ['added', 'screenedDate', '-screenedDate'] },
  },
  from: bound('from', 'Earliest screenedDate listed, from the first moment of the period named.'),
  to: bound('to', 'Latest screenedDate listed, to the last millisecond of the period named.'),
  q: {
    name: 'q',
    in: 'query',
    description:
      'Only movies whose title or notes hold every word of `q` as a word (words split at anything not a letter or digit; case and accents ignored); the last word may be the start of a word (`cinema para` finds "Cinéma Paradiso"). No word (empty, or punctuation): every movie. Combines with sort, from, to, limit and cursor; a cursor carries it. Over 1000 characters: 400 naming `q`.',
    schema: { type: 'string', maxLength: 1000 },
    examples: { words: { value: 'cinema para' } },
  },
  tag: {
    name: 'tag',
    in: 'query',
    description:
      'Only movies with this tag (case, accents and spaces ignored); repeat it for movies with every one (`?tag=festival&tag=horror`), at most 20. Combines with q, sort, from, to, limit and cursor; a cursor carries it (another tag with it: 400 naming `cursor`). A tag no movie could hold (empty, over 40 characters, a comma): 400 naming `tag`.',
    schema: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: TAGS_MAX },
    style: 'form',
    explode: true,
    examples: { one: { value: ['festival'] } },
  },
  statsFrom: month('from', 'First month counted'),
  statsTo: month('to', 'Last month counted'),
  // The change feed (Accept: text/event-stream).
  lastEventId: {
    name: 'lastEventId',
    in: 'query',
    description:
      'With `Accept: text/event-stream`: start after this event id (a first connection; a reconnecting EventSource sends `Last-Event-ID`, which wins). An id past the history kept, or not one of this log’s: a `reset` event first.',
    schema: { type: 'string' },
  },
  LastEventId: {
    name: 'Last-Event-ID',
    in: 'header',
    description:
      'With `Accept: text/event-stream`: the id of the last event received; the feed replays exactly the later changes, in order, then the new ones.',
    schema: { type: 'string' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    description:
      'Change only if the movie is still this version: its `ETag` (or several, or `*`: only if it exists). Otherwise 412, and nothing is changed.',
    schema: { type: 'string' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    description:
      'The `ETag` of the copy the client has: 304 while the movie is still that version.',
    schema: { type: 'string' },
  },
}

const stringHeader = (description: string, schema: JsonSchema = { type: 'string' }) => ({
  description,
  schema,
})

export const HEADERS: Record<string, JsonSchema> = {
  Link: stringHeader(
    'When more movies remain: `<URL>; rel="next"`, the URL of the next page (RFC 8288).',
    { type: 'string', pattern: '^<[^>]+>; rel="next"$' },
  ),
  Location: { ...stringHeader('The URL of the stored movie.'), required: true },
  RetryAfter: {
    ...stringHeader('Seconds to wait before trying again.', {
      type: 'string',
      pattern: '^[0-9]+$',
    }),
    required: true,
  },
  // A 503 to a write that may have landed has none: retried on it alone, the write could land
  // twice.
  StoreRetryAfter: stringHeader(
    'Seconds to wait before trying again; absent when `mayHaveLanded` is true.',
    { type: 'string', pattern: '^[0-9]+$' },
  ),
  Allow: { ...stringHeader('The methods this resource answers.'), required: true },
  AcceptPost: { ...stringHeader('The media type a POST must send.'), required: true },
  AcceptPatch: { ...stringHeader('The media types a PATCH may send.'), required: true },
  ETag: {
    description:
      'The movie’s version tag, quoted: derived from its content, the same on every server.',
    required: true,
    schema: { type: 'string', pattern: '^"[0-9a-f]{16}"$' },
  },
  WwwAuthenticate: { ...stringHeader('`Bearer realm="movie-log"`.'), required: true },
}

const PROBLEM_CONTENT = { 'application/problem+json': { schema: schemaRef('Problem') } }

/** A problem response of its own (the shared ones are RESPONSES). */
export const problem = (description: string, headers?: Record<string, unknown>) => ({
  description,
  ...(headers && { headers }),
  content: PROBLEM_CONTENT,
})

export const RESPONSES: Record<string, JsonSchema> = {
  BadRequest: problem(
    'The request is not valid: `errors` names each field (`pointer`) or query parameter (`parameter`).',
  ),
  Unauthorized: problem('The handler’s `authorize` hook wants credentials.', {
    'WWW-Authenticate': headerRef('WwwAuthenticate'),
  }),
  Forbidden: problem(
    'The handler’s `authorize` hook refused, a CORS preflight was refused, or a browser sent a write from another origin (one the CORS setting does not allow) or as a form or `no-cors` request.',
  ),
  NotFound: problem('There is no such movie.'),
  MethodNotAllowed: problem('This resource does not answer that method.', {
    Allow: headerRef('Allow'),
  }),
  NotAcceptable: problem('The Accept header excludes every type this resource answers with.'),
  Conflict: problem(
    'The first request with this Idempotency-Key is still being handled: retry shortly.',
    { 'Retry-After': headerRef('RetryAfter') },
  ),
  ContentTooLarge: problem('The body is larger than the handler’s limit (1 MiB by default).'),
  UnsupportedMediaType: problem('The body is not sent as application/json.', {
    'Accept-Post': headerRef('AcceptPost'),
  }),
  UnsupportedPatchType: problem(
    'The changes are not sent as application/merge-patch+json or application/json.',
    { 'Accept-Patch': headerRef('AcceptPatch') },
  ),
  PreconditionFailed: problem(
    'The movie is no longer the version If-Match named (or is gone): nothing was changed. Read it again.',
  ),
  NotModified: {
    description: 'The movie is still the version If-None-Match named.',
    headers: { ETag: headerRef('ETag') },
  },
  UnprocessableContent: problem('This Idempotency-Key was already used to add another movie.'),
  CatalogNotLoaded: problem(
    'No IMDb catalog is loaded: the detail names `movie-log catalog load`.',
  ),
  NoSuchSource: problem(
    'There is no scrobble source of that name: plex, jellyfin, emby or generic.',
  ),
  ScrobbleIncomplete: problem(
    'A finished movie that cannot be logged: `errors` names what is missing (its IMDb id), by the payload’s own names.',
  ),
  InternalServerError: problem('The server failed; the answer says nothing of its internals.'),
  ServiceUnavailable: problem(
    'The store failed (its detail says how: cannot be reached, no answer in time, too many connections, disk full, read-only, ...), or too many adds and scrobbles are running, or too many streams (exports, feeds, full lists) are open. An add may or may not have been stored (`mayHaveLanded` is true when it timed out): retry it with its Idempotency-Key.',
    { 'Retry-After': headerRef('StoreRetryAfter') },
  ),
}

/** `responses` entries for problem statuses: `{ '400': { $ref } }`. */
export function problems(...names: (keyof typeof STATUS_OF)[]): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [String(STATUS_OF[name]), responseRef(name)]))
}

const STATUS_OF = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  Conflict: 409,
  PreconditionFailed: 412,
  ContentTooLarge: 413,
  UnsupportedMediaType: 415,
  UnsupportedPatchType: 415,
  UnprocessableContent: 422,
  NoSuchSource: 404,
  CatalogNotLoaded: 404,
  ScrobbleIncomplete: 422,
  InternalServerError: 500,
  ServiceUnavailable: 503,
} as const
