/** The operations on one movie, `/{id}`: read, change, delete, with their entity tags. */
import { headerRef, type JsonSchema, parameterRef, problems, responseRef, schemaRef } from './parts'

const json = (schema: unknown) => ({ 'application/json': { schema } })

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
