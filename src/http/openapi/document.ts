/**
 * The OpenAPI 3.1 document of the HTTP contract, for a handler mounted at a base path: its
 * paths assembled from the operations (operations.ts), its components (components.ts,
 * schemas.ts), and the reply that serves it. A new route is one more piece in ROUTES.
 */
import { jsonReply, type Reply } from '../reply'
import { findInCatalog } from './catalog'
import {
  HEADERS,
  type JsonSchema,
  PARAMETERS,
  parameterRef,
  problems,
  RESPONSES,
} from './components'
import { IMPORT_SCHEMAS, importFile } from './import'
import {
  addMovie,
  deleteMovie,
  getDocument,
  getMovie,
  getStats,
  listMovies,
  updateMovie,
} from './operations'
import { SCHEMAS } from './schemas'
import { SCROBBLE_SCHEMAS, scrobble, sourceParameter } from './scrobble'
import {
  getSharedCalendar,
  getSharedLinks,
  getSharedRss,
  getShareLink,
  listSharedMovies,
  makeShareLink,
  removeShareLink,
  SHARE_SCHEMAS,
  shareTokenParameter,
} from './share'
import { TRAKT_PATHS, TRAKT_SCHEMAS } from './trakt'
import { WEBHOOK_DELIVERIES, webhookPaths } from './webhooks'

/** The name the document is served under, below the base path. */
export const OPENAPI_FILE = 'openapi.json'

interface RoutePiece {
  /** Below the base path: `''` for the collection, `/{id}` for a movie. */
  path: string
  item: JsonSchema
}

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

/** `/stats`: the log's statistics (a concrete path, matched before `/{id}`). */
const stats: RoutePiece = {
  path: '/stats',
  item: {
    get: getStats,
    head: headOf(getStats, 'headStats', 'Statistics of the log, headers only'),
    options: preflight('preflightStats'),
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

/** `/scrobble/{source}`: a media server's webhook. */
const scrobbles: RoutePiece = {
  path: '/scrobble/{source}',
  item: {
    parameters: [sourceParameter],
    post: scrobble,
    options: preflight('preflightScrobble'),
  },
}

/** `/catalog`: IMDb entries for a title (a concrete path, matched before `/{id}`). */
const catalog: RoutePiece = {
  path: '/catalog',
  item: {
    get: findInCatalog,
    head: headOf(findInCatalog, 'headCatalog', 'IMDb entries for a title, headers only'),
    options: preflight('preflightCatalog'),
  },
}

/** `/share`: the owner's share link (a concrete path, matched before `/{id}`). */
const shareLink: RoutePiece = {
  path: '/share',
  item: {
    get: getShareLink,
    head: headOf(getShareLink, 'headShareLink', 'The diary’s share link, headers only'),
    post: makeShareLink,
    delete: removeShareLink,
    options: preflight('preflightShareLink'),
  },
}

/** `/s/{token}…`: what a share link opens, read-only. */
const sharedRoute = (path: string, get: JsonSchema, head: string, summary: string): RoutePiece => ({
  path: `/s/{token}${path}`,
  item: {
    parameters: [shareTokenParameter],
    get,
    head: headOf(get, head, `${summary}, headers only`),
  },
})

/** `/import`: a file into the diary (a concrete path, matched before `/{id}`). */
const imports: RoutePiece = {
  path: '/import',
  item: { post: importFile, options: preflight('preflightImport') },
}

const ROUTES: readonly RoutePiece[] = [
  collection,
  document,
  stats,
  catalog,
  shareLink,
  imports,
  movie,
  scrobbles,
  sharedRoute('', getSharedLinks, 'headSharedLinks', 'Where a share link’s listing and feeds are'),
  sharedRoute('/movies', listSharedMovies, 'headSharedMovies', 'A shared diary’s movies'),
  sharedRoute('/rss', getSharedRss, 'headSharedRss', 'A shared diary’s RSS feed'),
  sharedRoute('/ics', getSharedCalendar, 'headSharedCalendar', 'A shared diary’s calendar'),
]

/**
 * The OpenAPI 3.1 document of a handler mounted at `basePath` (`'/movies'`, as hosts send it:
 * percent-encoded, no trailing slash; `''` for the root).
 */
export function createOpenApiDocument(basePath: string): JsonSchema {
  const paths = Object.fromEntries([
    ...ROUTES.map((route) => [basePath + route.path || '/', route.item]),
    ...Object.entries(TRAKT_PATHS).map(([path, item]) => [basePath + path, item]),
    ...Object.entries(webhookPaths(headOf, preflight)).map(([path, item]) => [
      basePath + path,
      item,
    ]),
  ])
  return {
    openapi: '3.1.0',
    info: {
      title: 'movie-log',
      version: '1',
      summary: 'A log of the movies you have screened.',
      description:
        'Every error is RFC 9457 problem details (`application/problem+json`). Another method on a path answers 405 with `Allow`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'The server that serves this document.' }],
    tags: [
      { name: 'movies', description: 'The log.' },
      { name: 'meta', description: 'This description.' },
      { name: 'scrobbles', description: 'Media servers’ webhooks, logging what was watched.' },
      { name: 'trakt', description: 'Trakt’s API, for the apps and players that speak it.' },
      {
        name: 'share',
        description:
          'A diary’s share link: its owner’s `/share`, and what the link opens below `/s/{token}`, read-only.',
      },
      {
        name: 'webhooks',
        description:
          'Outgoing webhooks: endpoints an owner registers, told of each change as Standard Webhooks specify.',
      },
      { name: 'cors', description: 'Browser preflights.' },
    ],
    // The handler's `authorize` hook decides: open by default; the example server can ask for
    // a bearer token.
    security: [{}, { bearer: [] }],
    paths,
    webhooks: WEBHOOK_DELIVERIES,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Asked for when the handler’s `authorize` hook wants credentials.',
        },
      },
      schemas: {
        ...SCHEMAS,
        ...SCROBBLE_SCHEMAS,
        ...TRAKT_SCHEMAS,
        ...SHARE_SCHEMAS,
        ...IMPORT_SCHEMAS,
      },
      parameters: PARAMETERS,
      headers: HEADERS,
      responses: RESPONSES,
    },
  }
}

/**
 * The reply that serves the document of a handler mounted at `basePath` (percent-encoded, as
 * hosts send paths). Written once, on first request: most handlers are never asked for it.
 */
export function createOpenApiReply(basePath: string): () => Reply {
  let text: string | undefined
  return () => {
    text ??= JSON.stringify(createOpenApiDocument(basePath))
    // The same for everyone, unlike the log's reads: any cache may keep it, asking again.
    return jsonReply(200, text, { vary: 'accept', 'cache-control': 'no-cache' })
  }
}
