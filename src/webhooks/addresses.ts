/**
 * Which addresses a webhook may be sent to: public unicast ones only, unless the owner's server
 * allows private networks (MOVIE_LOG_WEBHOOK_PRIVATE=1). Checked on the URL at registration and
 * on every address its host resolves to before each delivery, so that a diary's server cannot
 * be made to call its own loopback, its LAN or a cloud's metadata address (169.254.169.254).
 */
import ipaddr from 'ipaddr.js'

// What ipaddr.js calls each range refused, in the words a person reads.
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  uniqueLocal: 'a private network address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
}

/**
 * Why an IP address is refused as a webhook's, or `undefined` for a public unicast one. An
 * IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it is.
 *
 * @example
 * ```ts
 * refusedAddress('127.0.0.1') // 'is a loopback address'
 * ```
 */
export function refusedAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `is not an IP address (${address})`
  const range = ipaddr.process(address).range()
  if (range === 'unicast') return undefined
  return `is ${RANGE_WORDS[range] ?? `not a public address (${range})`} (${address})`
}

/**
 * Why a URL's host is refused before any lookup: an IP address that is not public, or a name
 * that can only be this machine (`localhost`, `*.localhost`: RFC 6761). Other names are judged
 * by the addresses they resolve to, at each delivery.
 */
export function refusedHost(hostname: string): string | undefined {
  const host = bare(hostname).toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return 'is this machine (localhost)'
  return ipaddr.isValid(host) ? refusedAddress(host) : undefined
}

/** Whether a URL's host is an IP address rather than a name to look up. */
export const isAddress = (hostname: string): boolean => ipaddr.isValid(bare(hostname))

// A URL writes an IPv6 address in brackets.
const bare = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1')

/** Resolves a host name to its addresses, as `dns.lookup(host, { all: true })` does. */
export type HostLookup = (hostname: string) => Promise<string[]>

/** `lookup`, failing once `signal` aborts (a resolver may take its own time, retries and all). */
export function boundedLookup(lookup: HostLookup, signal: AbortSignal): HostLookup {
  return (hostname) =>
    new Promise((resolve, reject) => {
      const stop = () => reject(signal.reason)
      if (signal.aborted) return stop()
      signal.addEventListener('abort', stop, { once: true })
      lookup(hostname)
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', stop))
    })
}

/**
 * Why a URL's host is refused, its name resolved by `lookup`: any address it resolves to that is
 * not public refuses it. A name that cannot be resolved is refused too, unless `unresolved` is
 * `'allowed'` (at registration: the receiver may not be up yet; each delivery looks again).
 */
export async function hostRefusal(
  hostname: string,
  lookup: HostLookup,
  unresolved: 'refused' | 'allowed' = 'refused',
): Promise<string | undefined> {
  const literal = refusedHost(hostname)
  if (literal || isAddress(hostname)) return literal
  let addresses: string[]
  try {
    addresses = await lookup(hostname)
  } catch (error) {
    if (unresolved === 'allowed') return undefined
    const why = (error as Error)?.name === 'TimeoutError' ? 'no answer in time' : codeOf(error)
    return `could not be resolved (${why ?? 'lookup failed'})`
  }
  if (addresses.length === 0) return unresolved === 'allowed' ? undefined : 'resolves to no address'
  for (const address of addresses) {
    const refused = refusedAddress(address)
    if (refused) return `resolves to an address that ${refused}`
  }
  return undefined
}

/** The errno an error carries, or its cause does (Node's fetch and dns put it there). */
export function codeOf(error: unknown): string | undefined {
  for (let at: unknown = error, depth = 0; at && depth < 4; depth++) {
    const { code } = at as { code?: unknown }
    if (typeof code === 'string') return code
    at = (at as { cause?: unknown }).cause
  }
  return undefined
}

// `process.getBuiltinModule` (Node 20.16+, Bun, Deno, Workers with nodejs_compat): the runtime's
// own modules without an import, which a bundle for a runtime without them would have to resolve.
const runtime = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }

/**
 * The runtime's resolver: `node:dns` (Node, Bun, Deno), taken on first use so that movie-log
 * imports no Node module. Where there is none, a lookup fails (a delivery is refused).
 */
export const systemLookup: HostLookup = async (hostname) => {
  const dns = runtime.process?.getBuiltinModule?.('node:dns') as
    | typeof import('node:dns')
    | undefined
  if (!dns) throw new Error('this runtime has no DNS resolver (node:dns): give a lookup')
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true })
  return found.map((entry) => entry.address)
}
