/** Reading what an HTTP request asks of the log: which resource, which body, which key. */

import { JSON_TYPE } from './reply'

export type Target =
  | { kind: 'collection' }
  | { kind: 'item'; id: string }
  | { kind: 'scrobble'; source: string }
  | { kind: 'trakt'; path: string }
  | { kind: 'shared'; path: string }
  | { kind: 'webhooks'; path: string }
  | { kind: 'import' }
  | { kind: 'none' }

// `/scrobble/{source}` below the base path (src/http/scrobble.ts).
const SCROBBLE = /^\/scrobble\/([^/]+)\/?$/

// A host may pass the path with the base path (it kept the prefix) or without (it stripped it).
export function resolveTarget(pathname: string, basePath: string): Target {
  const rest = isUnder(pathname, basePath) ? pathname.slice(basePath.length) : pathname
  if (rest === '' || rest === '/') return { kind: 'collection' }
  // Trakt's API (src/http/trakt/): `/trakt` and every path below it.
  if (rest === '/trakt' || rest.startsWith('/trakt/')) return { kind: 'trakt', path: rest.slice(6) }
  // A share link's listing and feeds (src/http/share/): `/s/<token>` and below.
  if (rest.startsWith('/s/')) return { kind: 'shared', path: rest.slice(2) }
  // An owner's outgoing webhook endpoints (src/http/webhooks.ts).
  if (rest === '/webhooks' || rest.startsWith('/webhooks/')) {
    return { kind: 'webhooks', path: rest.slice(9) }
  }
  // A file of another service's history, or of movies (src/http/import.ts).
  if (rest === '/import' || rest === '/import/') return { kind: 'import' }
  const source = SCROBBLE.exec(rest)?.[1]
  if (source !== undefined) return { kind: 'scrobble', source }
  const segment = /^\/([^/]+)\/?$/.exec(rest)?.[1]
  if (segment === undefined) return { kind: 'none' }
  try {
    return { kind: 'item', id: decodeURIComponent(segment) }
  } catch {
    return { kind: 'none' }
  }
}

const isUnder = (pathname: string, basePath: string) =>
  pathname === basePath || pathname.startsWith(`${basePath}/`)

/**
 * A 404's detail: outside the base path, a hint naming `basePath`, the usual slip of a handler
 * mounted at another path (`/api/movies`) without saying so. It names the option, never the
 * request's own URL.
 */
export function notFoundDetail(pathname: string, basePath: string): string {
  if (isUnder(pathname, basePath)) return 'Not found.'
  return `Not found. This log answers at ${basePath || '/'} (its basePath option): mounted at another path, set basePath to it.`
}

/** The start of the log's own Idempotency-Keys, a scrobble's (one per watch): never a client's. */
export const SCROBBLE_KEY_PREFIX = 'scrobble:'
const CLIENT_KEY_PREFIX = 'client:'

/**
 * A client's Idempotency-Key as the log keeps it. The draft sends the key as a structured-field
 * string ("..."); a bare token is taken as is. A key that starts as the log's own do (or as the
 * ones moved here) is moved under `client:`, so that no client's key meets a scrobble's: a key
 * `scrobble:generic:tt…` would otherwise make that watch's scrobble a 422.
 */
export function parseIdempotencyKey(header: string | null): string | undefined {
  if (header === null) return undefined
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(header.trim())
  const key = quoted ? (quoted[1] as string).replace(/\\(.)/g, '$1') : header.trim()
  const reserved = key.startsWith(SCROBBLE_KEY_PREFIX) || key.startsWith(CLIENT_KEY_PREFIX)
  return reserved ? CLIENT_KEY_PREFIX + key : key
}

export function normaliseBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '')
  return trimmed.startsWith('/') || trimmed === '' ? trimmed : `/${trimmed}`
}

/** The types a PATCH body may have: a JSON merge patch (RFC 7396), or plain JSON. */
export const PATCH_TYPES: readonly string[] = ['application/merge-patch+json', JSON_TYPE]

export function isJsonContentType(
  header: string | null,
  types: readonly string[] = [JSON_TYPE],
): boolean {
  if (header === null) return false
  if (header === JSON_TYPE && types.includes(JSON_TYPE)) return true
  const [type = '', ...parameters] = header.split(';').map((part) => part.trim().toLowerCase())
  if (!types.includes(type)) return false
  const charset = parameters.find((parameter) => parameter.startsWith('charset='))
  return charset === undefined || /^charset="?utf-8"?$/.test(charset)
}

// From the href, which every URL (h3's lazy one included) has at hand without a full parse.
export function originOf(url: URL): string {
  const { href } = url
  const path = href.indexOf('/', href.indexOf('//') + 2)
  return path === -1 ? href : href.slice(0, path)
}

/**
 * The request as `owner` and `authorize` see it on a scrobble route: media servers cannot set
 * headers, so a `?token=` there stands for `Authorization: Bearer <token>` (a header sent wins).
 * The copy has no body and no token in its URL, so a hook that logs the URL cannot leak it.
 */
export function withQueryToken(request: Request, url: URL): Request {
  const token = url.searchParams.get('token')
  if (token === null) return request
  const headers = new Headers(request.headers)
  if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`)
  const bare = new URL(url.href)
  bare.searchParams.delete('token')
  return new Request(bare.href, { method: request.method, headers })
}
