import { problemReply } from './problem'
import type { Reply } from './reply'

/**
 * Which browser origins may call the log: a list of origins, or `'*'` for any.
 *
 * @example
 * ```ts
 * const cors: CorsOrigins = ['https://movies.example']
 * toWebHandler(log, { cors })
 * ```
 */
export type CorsOrigins = '*' | readonly string[]

const ALLOWED_HEADERS =
  'Accept, Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match'
const EXPOSED_HEADERS = 'ETag, Link, Location, Retry-After'
const PREFLIGHT_MAX_AGE = '600'

/** The CORS headers for a request from `origin`, or none when the origin is not allowed. */
export function corsHeaders(origins: CorsOrigins, origin: string | null): Record<string, string> {
  if (origin === null) return {}
  if (origins !== '*' && !origins.includes(origin)) return { vary: 'origin' }
  return {
    'access-control-allow-origin': origins === '*' ? '*' : origin,
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'origin',
  }
}

/**
 * The answer to a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`): 204 with
 * what may be sent, or 403 for an origin or method that may not.
 */
export function preflightReply(
  origins: CorsOrigins,
  request: Request,
  allowedMethods: string,
): Reply {
  const headers = corsHeaders(origins, request.headers.get('origin'))
  const method = request.headers.get('access-control-request-method') ?? ''
  const methodAllowed = allowedMethods.split(', ').includes(method.toUpperCase())
  if (!headers['access-control-allow-origin'] || !methodAllowed) {
    return problemReply(403, 'This origin or method may not call the movie log.', headers)
  }
  return {
    status: 204,
    headers: {
      ...headers,
      'access-control-allow-methods': allowedMethods,
      'access-control-allow-headers': ALLOWED_HEADERS,
      'access-control-max-age': PREFLIGHT_MAX_AGE,
    },
    body: null,
  }
}

/** True for a CORS preflight request. */
export function isPreflight(request: Request): boolean {
  return request.method === 'OPTIONS' && request.headers.has('access-control-request-method')
}

/** Adds the CORS headers of a request's origin to a reply, joining any `Vary` it has. */
export function addCorsHeaders(reply: Reply, origins: CorsOrigins, origin: string | null): void {
  for (const [name, value] of Object.entries(corsHeaders(origins, origin))) {
    if (name !== 'vary') reply.headers[name] = value
    else if (!/\borigin\b/i.test(reply.headers.vary ?? '')) {
      reply.headers.vary = reply.headers.vary ? `${reply.headers.vary}, ${value}` : value
    }
  }
}
