/**
 * Share links in the OpenAPI document: the owner's `{base}/share`, and what a link opens below
 * `{base}/s/{token}` (read-only, no credentials: the link is the key).
 */
import { type JsonSchema, parameterRef, problems, schemaRef } from './components'
import { SCHEMAS } from './schemas'

const json = (schema: unknown) => ({ 'application/json': { schema } })
const text = (type: string, description: string) => ({
  [type]: { schema: { type: 'string', description } },
})

const SHARED_HEADERS = {
  ETag: {
    description: 'The answer’s SHA-256, quoted: `If-None-Match` with it is answered 304.',
    schema: { type: 'string' },
  },
  'X-Robots-Tag': {
    description: '`noindex`, unless the owner lets search engines index the link.',
    schema: { type: 'string', enum: ['noindex'] },
  },
}
const FEED_HEADERS = {
  ...SHARED_HEADERS,
  'Last-Modified': {
    description: 'When what the feed shows last changed (`If-Modified-Since` is answered 304).',
    schema: { type: 'string' },
  },
}
const NOT_MODIFIED = {
  '304': {
    description: 'Unchanged since the `ETag` (or date) asked about.',
    headers: SHARED_HEADERS,
  },
}
const UNKNOWN_LINK = {
  '404': {
    description:
      'No live link of this token: never made, revoked, or its owner gone (one answer for all).',
    content: { 'application/problem+json': { schema: schemaRef('Problem') } },
  },
}

const token: JsonSchema = {
  name: 'token',
  in: 'path',
  required: true,
  description: 'The link’s random part (192 bits, base64url).',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{32}$' },
}

const shareLink: JsonSchema = {
  type: 'object',
  description: 'A diary’s share link: its page is `path` below where the diary page is served.',
  required: ['token', 'path', 'notes', 'index', 'createdAt', 'movies', 'rss', 'ics'],
  properties: {
    token: token.schema,
    path: { type: 'string', description: '`/s/<token>`.' },
    notes: { type: 'boolean', description: 'Whether the notes are shown.' },
    index: { type: 'boolean', description: 'Whether search engines may index the page.' },
    createdAt: { type: 'string', description: 'ISO 8601, UTC.' },
    movies: { type: 'string', description: 'The link’s listing.' },
    rss: { type: 'string', description: 'Its RSS 2.0 feed.' },
    ics: { type: 'string', description: 'Its iCalendar feed.' },
  },
}

const shareChoices: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    notes: { type: 'boolean', description: 'Show the notes (default false).' },
    index: { type: 'boolean', description: 'Let search engines index the page (default false).' },
  },
}

const movie = SCHEMAS.Movie as JsonSchema
const sharedMovie: JsonSchema = {
  ...movie,
  description: 'A movie as a share link shows it: `notes` only when the owner shares them.',
  required: (movie.required as string[]).filter((field) => field !== 'notes'),
}

export const SHARE_SCHEMAS: Record<string, JsonSchema> = {
  ShareLink: shareLink,
  ShareChoices: shareChoices,
  SharedMovie: sharedMovie,
}

const LINK_PROBLEMS = problems(
  'Unauthorized',
  'Forbidden',
  'InternalServerError',
  'ServiceUnavailable',
)

export const getShareLink: JsonSchema = {
  operationId: 'getShareLink',
  summary: 'The diary’s share link',
  description: 'Asked as the list is (`authorize`: `list`). 404 while sharing is off.',
  tags: ['share'],
  responses: {
    '200': { description: 'The link.', content: json(schemaRef('ShareLink')) },
    ...problems('NotFound'),
    ...LINK_PROBLEMS,
  },
}

export const makeShareLink: JsonSchema = {
  operationId: 'makeShareLink',
  summary: 'Share the diary: a new link',
  description:
    'Turns sharing on, or makes a new link: the link before stops working at once. Asked as an edit is (`authorize`: `update`). A choice not named, or not a boolean: 400 naming it.',
  tags: ['share'],
  requestBody: { required: true, content: json(schemaRef('ShareChoices')) },
  responses: {
    '200': { description: 'The new link.', content: json(schemaRef('ShareLink')) },
    ...problems('BadRequest', 'ContentTooLarge', 'UnsupportedMediaType'),
    ...LINK_PROBLEMS,
  },
}

export const removeShareLink: JsonSchema = {
  operationId: 'removeShareLink',
  summary: 'Stop sharing the diary',
  description: 'The link stops working at once (204 when sharing was off already).',
  tags: ['share'],
  responses: { '204': { description: 'Sharing is off.' }, ...LINK_PROBLEMS },
}

const shared = (
  operationId: string,
  summary: string,
  description: string,
  ok: JsonSchema,
  more: JsonSchema = {},
): JsonSchema => ({
  operationId,
  summary,
  description,
  tags: ['share'],
  security: [],
  ...more,
  responses: {
    '200': ok,
    ...NOT_MODIFIED,
    ...UNKNOWN_LINK,
    ...(more.responses as JsonSchema | undefined),
    ...problems('InternalServerError', 'ServiceUnavailable'),
  },
})

export const getSharedLinks = shared(
  'getSharedLinks',
  'Where a share link’s listing and feeds are',
  'Read-only, no credentials asked. On the server, a browser at `/s/{token}` gets the read-only page instead.',
  {
    description: 'The link’s listing and feeds.',
    headers: SHARED_HEADERS,
    content: json({
      type: 'object',
      required: ['movies', 'rss', 'ics'],
      properties: {
        movies: { type: 'string' },
        rss: { type: 'string' },
        ics: { type: 'string' },
      },
    }),
  },
)

export const listSharedMovies = shared(
  'listSharedMovies',
  'A shared diary’s movies',
  'As `GET {base}` answers (pages, cursors, `Link: rel="next"`, sort, range, tags), JSON only, and without `notes` unless the owner shares them; without them, `q` is refused (400 naming it), since words of the notes would tell what they say.',
  {
    description: 'The movies, in the order asked for.',
    headers: { ...SHARED_HEADERS, Link: { $ref: '#/components/headers/Link' } },
    content: json({ type: 'array', items: schemaRef('SharedMovie') }),
  },
  {
    parameters: ['limit', 'cursor', 'sort', 'from', 'to', 'q', 'tag'].map(parameterRef),
    responses: problems('BadRequest', 'NotAcceptable'),
  },
)

export const getSharedRss = shared(
  'getSharedRss',
  'A shared diary’s RSS feed',
  'RSS 2.0 of the latest 100 screenings, latest first, with Letterboxd’s elements (`xmlns:letterboxd="https://letterboxd.com"`: `watchedDate`, `rewatch`, `filmTitle`, `filmYear`, `memberRating` from 0.5 to 5.0); each item’s `guid` (`isPermaLink="false"`) is stable.',
  {
    description: 'The feed.',
    headers: FEED_HEADERS,
    content: text('application/rss+xml', 'RSS 2.0.'),
  },
)

export const getSharedCalendar = shared(
  'getSharedCalendar',
  'A shared diary’s calendar',
  'iCalendar (RFC 5545) of the latest 1,000 screenings: each a `VEVENT` at its local time in the server’s time zone (`TZID`, with its `VTIMEZONE`), a stable `UID`, a `SEQUENCE` that grows with each edit; a deleted movie is gone from the next fetch.',
  {
    description: 'The calendar.',
    headers: FEED_HEADERS,
    content: text('text/calendar', 'iCalendar.'),
  },
)

export { token as shareTokenParameter }
