/** One call over HTTP: a timeout per attempt, and retries for what may succeed when repeated. */
import { StoreUnavailableError } from '../core/errors'

export interface SendOptions {
  fetch: typeof fetch
  retries: number
  timeoutMs: number
}

// 503: the store (or the server's add capacity) is briefly out. 409: the first request with the
// same Idempotency-Key is still running. Both say to try again; nothing else does.
const RETRIED_STATUSES = [409, 503]
// What is safe to send twice without a key: reading changes nothing.
const SAFE_METHODS = ['GET', 'HEAD']
const FIRST_BACKOFF_MS = 100
const MAX_BACKOFF_MS = 5000

/**
 * Sends `init` to `url`, retrying network failures, timeouts, 409 and 503 up to `retries` times,
 * after the answer's `Retry-After` or an exponential backoff with jitter. Resolves with the last
 * answer; a network failure on the last attempt becomes a StoreUnavailableError: the log could
 * not be reached. A write without an `Idempotency-Key` is not sent again once it may have
 * landed (its answer lost, or a 503 saying `mayHaveLanded`): sent twice, it could land twice.
 */
export async function send(
  url: string,
  init: RequestInit,
  operation: string,
  options: SendOptions,
): Promise<Response> {
  const unkeyedWrite =
    !SAFE_METHODS.includes(init.method?.toUpperCase() ?? 'GET') &&
    !new Headers(init.headers).has('idempotency-key')
  for (let attempt = 0; ; attempt++) {
    let response: Response | undefined
    try {
      response = await options.fetch(url, {
        ...init,
        signal: AbortSignal.timeout(options.timeoutMs),
      })
    } catch (error) {
      // Unless no connection was made, the request may have reached the server: an unkeyed
      // write is not sent again.
      const landed = unkeyedWrite && !neverSent(error)
      if (attempt >= options.retries || landed)
        throw new StoreUnavailableError(operation, error, {
          reason: timedOut(error) ? 'timeout' : 'unreachable',
          mayHaveLanded: landed,
        })
    }
    if (
      response &&
      (attempt >= options.retries ||
        !RETRIED_STATUSES.includes(response.status) ||
        (unkeyedWrite && (await mayHaveLanded(response))))
    ) {
      return response
    }
    const wait = retryAfterMs(response?.headers.get('retry-after')) ?? backoffMs(attempt)
    await response?.body?.cancel()
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

// A 503 to a write that timed out on the server: the write may still be stored.
async function mayHaveLanded(response: Response): Promise<boolean> {
  if (response.status !== 503) return false
  const problem: unknown = await response
    .clone()
    .json()
    .catch(() => undefined)
  return (problem as { mayHaveLanded?: unknown } | undefined)?.mayHaveLanded === true
}

// No connection was made (a server restarting, a name not found): nothing of it was sent. Node's
// fetch says why in the error's cause; a browser's never does, so there a write is not resent.
const NOT_CONNECTED = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']
function neverSent(error: unknown): boolean {
  const code = ((error as { cause?: { code?: unknown } } | undefined)?.cause as { code?: unknown })
    ?.code
  return typeof code === 'string' && NOT_CONNECTED.includes(code)
}

// AbortSignal.timeout's own error: the server did not answer in time.
function timedOut(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError'
}

// Retry-After: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
function retryAfterMs(value: string | null | undefined): number | undefined {
  if (!value) return undefined
  const at = /^\d+$/.test(value) ? Date.now() + Number(value) * 1000 : Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

// Full jitter: retries from many clients after one outage do not arrive together.
function backoffMs(attempt: number): number {
  return Math.random() * Math.min(FIRST_BACKOFF_MS * 2 ** attempt, MAX_BACKOFF_MS)
}
