/**
 * The operations of the OpenAPI document: on the collection (list, add), on one movie (read,
 * change, delete, with their entity tags) and on the document itself. HEAD and the CORS
 * preflights are derived from them where the paths are assembled (document.ts).
 */
import {
  headerRef,
  type JsonSchema,
  parameterRef,
  problems,
  responseRef,
  schemaRef,
} from './components'

const json = (schema: unknown) => ({ 'application/json': { schema } })

// What a read of the log may answer besides its 200 (the list, the statistics).
const READ_PROBLEMS = problems(
  'BadRequest',
  'Unauthorized',
  'Forbidden',
  'NotAcceptable',
  'InternalServerError',
  'ServiceUnavailable',
)

// The collection, `/`.

export const listMovies: JsonSchema = {
  operationId: 'listMovies',
  summary: 'List movies, oldest added first or by date',
  description:
    'Without `limit` and `cursor`: every movie, as one JSON array. With them: one page, and a `Link: rel="next"` header while more remain. `sort`, `from`, `to`, `q` (search) and `tag` apply to both; a cursor carries them. With `Accept: application/x-ndjson` or `text/csv` (named, and JSON not ranked as high): what the list shows, every movie of it in that format, streamed; `sort`, `from`, `to`, `q` and `tag` apply, `limit` and `cursor` do not. With `Accept: text/event-stream` (named; never chosen by `*/*`): the live feed of the log’s changes, as Server-Sent Events, until the client leaves.',
  tags: ['movies'],
  parameters: [
    parameterRef('limit'),
    parameterRef('cursor'),
    parameterRef('sort'),
    parameterRef('from'),
    parameterRef('to'),
    parameterRef('q'),
    parameterRef('tag'),
    parameterRef('lastEventId'),
    parameterRef('LastEventId'),
  ],
  responses: {
    '200': {
      description: 'The movies, in the order asked for; or the feed of changes.',
      headers: { Link: headerRef('Link') },
      content: {
        ...json({ type: 'array', items: schemaRef('Movie') }),
        // Exports: chosen by Accept; every movie, limit and cursor not applying.
        'application/x-ndjson': {
          schema: { type: 'string', description: 'Every movie, one JSON object a line.' },
        },
        'text/csv': {
          schema: {
            type: 'string',
            description:
              "Every movie as RFC 4180 CSV (UTF-8, CRLF), header id,title,screenedDate,releaseYear,imdbLink,notes; a cell starting with =, +, -, @, tab or CR is prefixed with '.",
          },
        },
        // The live feed: chosen by Accept, never by a wildcard.
        'text/event-stream': {
          schema: {
            type: 'string',
            description:
              'Server-Sent Events: first `retry: <ms>` and `event: ready` (data: `{}`; its `id:` the point the feed starts after, when the log has kept a change); then per change `event: added` or `event: updated` (data: the Movie as JSON), `event: deleted` (data: `{"id": "<the movie’s id>"}`) or `event: reset` (data: `{}`: the history kept no longer reaches the id asked for; read the list again), each with its `id:`; a `: keep-alive` comment every 15 s. The latest 1,000 changes of the log are kept.',
          },
          example:
            'retry: 2000\nevent: ready\nid: 0000000000000041\ndata: {}\n\nevent: added\nid: 0000000000000042\ndata: {"id":"01890a5d-ac96-774b-bcce-b302099a8057","title":"Heat","screenedDate":"2024-05-01T20:30:00.000","releaseYear":1995,"imdbLink":"https://www.imdb.com/title/tt0113277/","notes":""}\n\n: keep-alive\n\nevent: deleted\nid: 0000000000000043\ndata: {"id":"01890a5d-ac96-774b-bcce-b302099a8057"}\n\n',
        },
      },
    },
    ...READ_PROBLEMS,
  },
}

export const addMovie: JsonSchema = {
  operationId: 'addMovie',
  summary: 'Add a movie',
  tags: ['movies'],
  parameters: [parameterRef('IdempotencyKey')],
  requestBody: { required: true, content: json(schemaRef('NewMovie')) },
  responses: {
    '201': {
      description: 'The stored movie, with its id, and its version as `ETag`.',
      headers: { Location: headerRef('Location'), ETag: headerRef('ETag') },
      content: json(schemaRef('Movie')),
    },
    ...problems(
      'BadRequest',
      'Unauthorized',
      'Forbidden',
      'Conflict',
      'ContentTooLarge',
      'UnsupportedMediaType',
      'UnprocessableContent',
      'InternalServerError',
      'ServiceUnavailable',
    ),
  },
}

// One movie, `/{id}`.

export const getMovie: JsonSchema = {
  operationId: 'getMovie',
  summary: 'Get one movie',
  tags: ['movies'],
  parameters: [parameterRef('IfNoneMatch')],
  responses: {
    '200': {
      description: 'The movie, and its version as `ETag`.',
      headers: { ETag: headerRef('ETag') },
      content: json(schemaRef('Movie')),
    },
    '304': responseRef('NotModified'),
    ...problems(
      'Unauthorized',
      'Forbidden',
      'NotFound',
      'NotAcceptable',
      'InternalServerError',
      'ServiceUnavailable',
    ),
  },
}

export const updateMovie: JsonSchema = {
  operationId: 'updateMovie',
  summary: 'Change some fields of a movie',
  description:
    'A JSON merge patch (RFC 7396) of any of the five fields, by the same rules as an add; `id`, unknown fields and `null` are refused. With `If-Match`, only if the movie is still that version.',
  tags: ['movies'],
  parameters: [parameterRef('IfMatch')],
  requestBody: {
    required: true,
    content: {
      'application/merge-patch+json': { schema: schemaRef('MovieChanges') },
      'application/json': { schema: schemaRef('MovieChanges') },
    },
  },
  responses: {
    '200': {
      description: 'The whole movie as stored now, and its new `ETag`.',
      headers: { ETag: headerRef('ETag') },
      content: json(schemaRef('Movie')),
    },
    ...problems(
      'BadRequest',
      'Unauthorized',
      'Forbidden',
      'NotFound',
      'PreconditionFailed',
      'ContentTooLarge',
      'UnsupportedPatchType',
      'InternalServerError',
      'ServiceUnavailable',
    ),
  },
}

export const deleteMovie: JsonSchema = {
  operationId: 'deleteMovie',
  summary: 'Delete a movie',
  description: 'With `If-Match`, only if the movie is still that version.',
  tags: ['movies'],
  parameters: [parameterRef('IfMatch')],
  responses: {
    '204': { description: 'Deleted.' },
    ...problems(
      'Unauthorized',
      'Forbidden',
      'NotFound',
      'PreconditionFailed',
      'InternalServerError',
      'ServiceUnavailable',
    ),
  },
}

// The document itself, `/openapi.json`.

export const getStats: JsonSchema = {
  operationId: 'getStats',
  summary: 'Statistics of the log',
  description:
    'Counts by screenedDate (its local time) within the months `from`..`to`: total, by year, month, weekday and hour, by release decade, and the movies screened more than once. Kept with the movies, so they follow every acknowledged add, edit and delete. `from` after `to`: all zero. Guarded as the list is (`authorize` is asked about `list`).',
  tags: ['movies'],
  parameters: [parameterRef('statsFrom'), parameterRef('statsTo')],
  responses: {
    '200': { description: 'The statistics.', content: json(schemaRef('MovieStats')) },
    ...READ_PROBLEMS,
  },
}

export const getDocument: JsonSchema = {
  operationId: 'getOpenApiDocument',
  summary: 'This OpenAPI document',
  description: 'The document of this handler, its paths under the base path it is mounted at.',
  tags: ['meta'],
  security: [],
  responses: {
    '200': {
      description: 'The OpenAPI 3.1 document.',
      content: json({
        type: 'object',
        required: ['openapi', 'info', 'paths'],
        properties: {
          openapi: { type: 'string', pattern: '^3\\.1\\.' },
          info: { type: 'object' },
          paths: { type: 'object' },
        },
      }),
    },
    ...problems('NotAcceptable'),
  },
}
