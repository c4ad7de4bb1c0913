/** Trakt's answers as Trakt shapes them: JSON bodies, its errors, its pagination headers. */
import { JSON_TYPE, type Reply } from '../reply'

/** A JSON answer. */
export const traktJson = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Reply => ({
  status,
  headers: { 'content-type': JSON_TYPE, ...headers },
  body: JSON.stringify(body),
})

/**
 * An error as Trakt answers it: `{ error, error_description }`, the shape its OAuth endpoints
 * use and clients print, with a status Trakt documents for the case.
 */
export function traktError(status: number, error: string, description: string): Reply {
  const headers: Record<string, string> =
    status === 401 ? { 'www-authenticate': `Bearer realm="trakt", error="${error}"` } : {}
  return traktJson(status, { error, error_description: description }, headers)
}

/** 201 with nothing to say: what `/oauth/revoke` answers (Trakt: 200, an empty body). */
export const emptyOk = (): Reply => ({ status: 200, headers: {}, body: null })

/** Trakt's pagination headers for page `page` of `limit` over `count` items. */
export function paginationHeaders(
  page: number,
  limit: number,
  count: number,
): Record<string, string> {
  return {
    'x-pagination-page': String(page),
    'x-pagination-limit': String(limit),
    'x-pagination-page-count': String(Math.max(1, Math.ceil(count / limit))),
    'x-pagination-item-count': String(count),
  }
}
