/**
 * Sends one delivery: the host's addresses checked first (public unicast only, unless private
 * networks are allowed), then one POST through `fetch`, with a time limit and no redirect
 * followed. What went wrong is said in words the endpoint's owner reads in its status.
 */
import { isAddress, refusedAddress, refusedHost } from './addresses'

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

/** Resolves a host name to its addresses, as `dns.lookup(host, { all: true })` does. */
export type HostLookup = (hostname: string) => Promise<string[]>

/** Options of the sender `startWebhookDelivery` makes. */
export interface SenderOptions {
  /** How long one delivery may take, in ms, before it counts as failed. */
  timeoutMs: number
  allowPrivateNetworks: boolean
  fetch: typeof fetch
  lookup: HostLookup
}

/** The sender: checks the addresses, posts, and reads nothing of the answer but its status. */
export function createSender(options: SenderOptions): WebhookSender {
  return async ({ url, headers, body }) => {
    const { hostname } = new URL(url)
    if (!options.allowPrivateNetworks) {
      const refused = await refusal(hostname, options.lookup)
      if (refused) return { ok: false, error: `refused: ${hostname} ${refused}` }
    }
    let response: Response
    try {
      response = await options.fetch(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'movie-log' },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs),
      })
    } catch (error) {
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

async function refusal(hostname: string, lookup: HostLookup): Promise<string | undefined> {
  const literal = refusedHost(hostname)
  if (literal || isAddress(hostname)) return literal
  let addresses: string[]
  try {
    addresses = await lookup(hostname)
  } catch (error) {
    return `could not be resolved (${codeOf(error) ?? 'lookup failed'})`
  }
  if (addresses.length === 0) return 'resolves to no address'
  for (const address of addresses) {
    const refused = refusedAddress(address)
    if (refused) return `resolves to an address that ${refused}`
  }
  return undefined
}

function failureOf(error: unknown, timeoutMs: number): string {
  const name = (error as Error)?.name
  if (name === 'TimeoutError' || name === 'AbortError') {
    return `did not answer within ${timeoutMs / 1000} s`
  }
  const code = codeOf(error)
  return code ? `could not be reached (${code})` : 'could not be reached'
}

// Node's fetch puts the socket's errno on the cause.
function codeOf(error: unknown): string | undefined {
  for (let at: unknown = error, depth = 0; at && depth < 4; depth++) {
    const { code } = at as { code?: unknown }
    if (typeof code === 'string') return code
    at = (at as { cause?: unknown }).cause
  }
  return undefined
}

/**
 * The runtime's resolver: `node:dns` (Node, Bun, Deno), loaded on the first delivery so that
 * importing movie-log loads no Node module. Without one, a host cannot be checked: refused.
 */
export const systemLookup: HostLookup = async (hostname) => {
  const dns = await import('node:dns')
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true })
  return found.map((entry) => entry.address)
}
