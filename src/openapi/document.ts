/** The OpenAPI 3.1 document of the HTTP contract, for a handler mounted at a base path. */
import { HEADERS, type JsonSchema, PARAMETERS, RESPONSES } from './parts'
import { ROUTES } from './routes'
import { SCHEMAS } from './schemas'

/** The name the document is served under, below the base path. */
export const OPENAPI_FILE = 'openapi.json'

/**
 * The OpenAPI 3.1 document of a handler mounted at `basePath` (`'/movies'`, as hosts send it:
 * percent-encoded, no trailing slash; `''` for the root).
 */
export function createOpenApiDocument(basePath: string): JsonSchema {
  const paths = Object.fromEntries(
    ROUTES.map((route) => [basePath + route.path || '/', route.item]),
  )
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
      { name: 'cors', description: 'Browser preflights.' },
    ],
    // The handler's `authorize` hook decides: open by default; the example server can ask for
    // a bearer token.
    security: [{}, { bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Asked for when the handler’s `authorize` hook wants credentials.',
        },
      },
      schemas: SCHEMAS,
      parameters: PARAMETERS,
      headers: HEADERS,
      responses: RESPONSES,
    },
  }
}
