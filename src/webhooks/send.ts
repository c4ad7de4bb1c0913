/**
 * Sends one delivery: the host's addresses checked first (public unicast only, unless private
 * networks are allowed), then one POST through `fetch`, with a time limit and no redirect
 * followed. What went wrong is said in words the endpoint's owner reads in its status.
 */
import { boundedLookup, codeOf, type HostLookup, hostRefusal } from './addresses'

/** One delivery as the deliverer sends it. */
export interface WebhookRequest {
  url: string
  headers: Record<string, string>
  body: string
}

/** How a delivery went: delivered (a 2xx), or why not. */
export type SendResult = { ok: true } | { ok: false; error: string }

/** Sends one delivery. */
export type WebhookSender = (request: WebhookRequest) => Promise<SendResult>

/** Options of the sender `startWebhookDelivery` makes. */
export interface SenderOptions {
  /** How long one delivery may take, in ms, before it counts as failed. */
  timeoutMs: number
  allowPrivateNetworks: boolean
  fetch: typeof fetch
  lookup: HostLookup
  /** Cuts off the deliveries in flight (a deliverer stopping): each counts as not delivered. */
  cutOff: AbortSignal
}

/** The sender: checks the addresses, posts, and reads nothing of the answer but its status. */
export function createSender(options: SenderOptions): WebhookSender {
  return async ({ url, headers, body }) => {
    const { hostname } = new URL(url)
    // One time limit for the lookup and the request: the lease's margin counts on it.
    const deadline = AbortSignal.timeout(options.timeoutMs)
    if (!options.allowPrivateNetworks) {
      const refused = await hostRefusal(hostname, boundedLookup(options.lookup, deadline))
      if (refused) return { ok: false, error: `refused: ${hostname} ${refused}` }
    }
    let response: Response
    try {
      response = await options.fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'movie-log' },
        body,
        redirect: 'manual',
        signal: AbortSignal.any([deadline, options.cutOff]),
      })
    } catch (error) {
      if (options.cutOff.aborted) return { ok: false, error: 'cut off: the deliverer stopped' }
      return { ok: false, error: failureOf(error, options.timeoutMs) }
    }
    // Nothing of the answer is read: its body is let go, and its connection with it.
    await response.body?.cancel().catch(() => {})
    if (response.status >= 200 && response.status < 300) return { ok: true }
    if ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
      return {
        ok: false,
        error: `answered ${response.status}, a redirect: redirects are not followed`,
      }
    }
    return { ok: false, error: `answered ${response.status}` }
  }
}

function failureOf(error: unknown, timeoutMs: number): string {
  const name = (error as Error)?.name
  if (name === 'TimeoutError' || name === 'AbortError') {
    return `did not answer within ${timeoutMs / 1000} s`
  }
  const code = codeOf(error)
  return code ? `could not be reached (${code})` : 'could not be reached'
}
