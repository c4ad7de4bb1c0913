/**
 * The routes of the OpenAPI document, one piece each: a path below the base path and what it
 * answers. A new route is one more piece in ROUTES.
 */
import { deleteMovie, getMovie, updateMovie } from './item-routes'
import { headerRef, type JsonSchema, parameterRef, problems, schemaRef } from './parts'

export interface RoutePiece {
  /** Below the base path: `''` for the collection, `/{id}` for a movie. */
  path: string
  item: JsonSchema
}

const json = (schema: unknown) => ({ 'application/json': { schema } })

/** HEAD: the GET answer without its body. */
function headOf(get: JsonSchema, operationId: string, summary: string): JsonSchema {
  const responses = get.responses as Record<string, JsonSchema>
  const withoutBodies = Object.fromEntries(
    Object.entries(responses).map(([status, response]) => [
      status,
      response.$ref ? { description: 'As for GET, without the body.' } : withoutBody(response),
    ]),
  )
  return { ...get, operationId, summary, responses: withoutBodies }
}

function withoutBody(response: JsonSchema): JsonSchema {
  const { content: _content, ...rest } = response
  return rest
}

const preflight = (operationId: string): JsonSchema => ({
  operationId,
  summary: 'CORS preflight',
  description:
    'Answered when the handler has `cors` origins and the request carries Access-Control-Request-Method; otherwise 405.',
  tags: ['cors'],
  security: [],
  responses: {
    '204': {
      description: 'The origin may send the method: what it may send, for how long.',
      headers: {
        'Access-Control-Allow-Methods': { schema: { type: 'string' } },
        'Access-Control-Allow-Headers': { schema: { type: 'string' } },
        'Access-Control-Max-Age': { schema: { type: 'string' } },
      },
    },
    ...problems('Forbidden', 'MethodNotAllowed'),
  },
})

const listMovies: JsonSchema = {
  operationId: 'listMovies',
  summary: 'List movies, oldest added first or by date',
  description:
    'Without `limit` and `cursor`: every movie, as one JSON array. With them: one page, and a `Link: rel="next"` header while more remain. `sort`, `from` and `to` apply to both; a cursor carries them. With `Accept: application/x-ndjson` or `text/csv` (named, and JSON not ranked as high): every movie in that format, streamed; `sort`, `from` and `to` apply, `limit` and `cursor` do not.',
  tags: ['movies'],
  parameters: [
    parameterRef('limit'),
    parameterRef('cursor'),
    parameterRef('sort'),
    parameterRef('from'),
    parameterRef('to'),
  ],
  responses: {
    '200': {
      description: 'The movies, in the order asked for.',
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
      },
    },
    ...problems(
      'BadRequest',
      'Unauthorized',
      'Forbidden',
      'NotAcceptable',
      'InternalServerError',
      'ServiceUnavailable',
    ),
  },
}

const addMovie: JsonSchema = {
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

const getDocument: JsonSchema = {
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

/** `/` below the base path: the collection. */
const collection: RoutePiece = {
  path: '',
  item: {
    get: listMovies,
    head: headOf(listMovies, 'headMovies', 'List movies, headers only'),
    post: addMovie,
    options: preflight('preflightMovies'),
  },
}

/** `/openapi.json`: the document itself (a concrete path, matched before `/{id}`). */
const document: RoutePiece = {
  path: '/openapi.json',
  item: {
    get: getDocument,
    head: headOf(getDocument, 'headOpenApiDocument', 'This OpenAPI document, headers only'),
    options: preflight('preflightOpenApiDocument'),
  },
}

/** `/{id}`: one movie. */
const movie: RoutePiece = {
  path: '/{id}',
  item: {
    parameters: [parameterRef('id')],
    get: getMovie,
    head: headOf(getMovie, 'headMovie', 'Get one movie, headers only'),
    patch: updateMovie,
    delete: deleteMovie,
    options: preflight('preflightMovie'),
  },
}

export const ROUTES: readonly RoutePiece[] = [collection, document, movie]
