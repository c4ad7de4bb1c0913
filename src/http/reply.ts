/**
 * An HTTP answer as the contract builds it: plain data, turned into the host's own response
 * object only at the edge (a web `Response`; for h3, srvx's `FastResponse` or, for an error,
 * h3's `HTTPResponse`). Building plain objects keeps the contract cheap to run and lets each
 * adapter use its host's fastest response.
 */
export interface Reply {
  status: number
  /** Lower-case header names. */
  headers: Record<string, string>
  body: string | ReadableStream<Uint8Array> | null
}

export const JSON_TYPE = 'application/json'

// RFC 9110 reason phrases: the status line's text, and the title of an about:blank problem.
const REASON_PHRASES: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

/** The reason phrase of a status, as the status line and `about:blank` titles use it. */
export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? ''
}

/** A reply whose body is JSON text already serialised. */
export function jsonReply(status: number, json: string, headers: Record<string, string>): Reply {
  headers['content-type'] = JSON_TYPE
  return { status, headers, body: json }
}

/** The reply as a web-standard `Response`. */
export function toWebResponse(reply: Reply): Response {
  return new Response(reply.body, {
    status: reply.status,
    statusText: reasonPhrase(reply.status),
    headers: reply.headers,
  })
}
