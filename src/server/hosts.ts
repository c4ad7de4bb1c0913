/**
 * Which `Host` headers the server answers: its guard against DNS rebinding, where a web page
 * points a name of its own at 127.0.0.1 and then reads and writes the log as a same-origin page.
 *
 * - Bound to a loopback address (the default, 127.0.0.1): only loopback names and addresses
 *   (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`, any port), and the names of
 *   MOVIE_LOG_HOSTS.
 * - Bound to any other address (`0.0.0.0`, a LAN address): the server is on the network and
 *   named by whatever its users call it, so any `Host`, unless MOVIE_LOG_HOSTS is set: then only
 *   those names and loopback ones.
 */

/**
 * The check of a request's host (its URL's, from the `Host` header: the one `Location` and
 * `Link` are written with) for a server bound to `bind`, with `names` allowed
 * besides loopback ones; `undefined` when every host is answered.
 *
 * @example
 * ```ts
 * const allowed = hostFilter('127.0.0.1', [])
 * allowed?.('localhost:3000') // true
 * allowed?.('evil.example') // false
 * ```
 */
export function hostFilter(
  bind: string,
  names: readonly string[] = [],
): ((host: string) => boolean) | undefined {
  if (!isLoopback(hostName(bind)) && names.length === 0) return undefined
  const allowed = new Set(names.map(hostName))
  return (host) => isLoopback(hostName(host)) || allowed.has(hostName(host))
}

/** A host name or address, as written in a Host header or a setting: lower case, no port. */
export function hostName(host: string): string {
  const name = host.trim().toLowerCase()
  if (name.startsWith('[')) return name.slice(0, name.indexOf(']') + 1)
  // Two colons or more: a bare IPv6 address (a bind address such as ::1), bracketed.
  if (name.indexOf(':') !== name.lastIndexOf(':')) return `[${name}]`
  return name.replace(/:\d*$/, '').replace(/\.$/, '')
}

const IPV4_LOOPBACK = /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/

/** Whether `name` (as `hostName` gives it) is loopback: localhost, 127.0.0.0/8 or [::1]. */
export function isLoopback(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true
  if (IPV4_LOOPBACK.test(name)) return true
  if (name === '[::1]' || name === '[0:0:0:0:0:0:0:1]') return true
  const mapped = /^\[::ffff:(.+)\]$/.exec(name)?.[1]
  return mapped !== undefined && IPV4_LOOPBACK.test(mapped)
}

// A host name or address as a browser writes it in Host, with a port or not.
const HOST_ENTRY = /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(\.[a-z0-9_-]+)*)(:\d{1,5})?$/

/**
 * Why a MOVIE_LOG_HOSTS entry can never match a request's host, or undefined when it can: an
 * entry is compared with the host as the request's URL writes it, so a wildcard, a URL, a list
 * separated by spaces or semicolons, a name ending in a dot (srvx refuses such a Host) or an
 * address written otherwise (`[::ffff:127.0.0.1]` is `[::ffff:7f00:1]` there) would sit in the
 * setting, never answered.
 *
 * @example
 * ```ts
 * hostEntryProblem('movies.example') // undefined
 * hostEntryProblem('*') // 'is not a host name: name each host (…)'
 * ```
 */
export function hostEntryProblem(entry: string): string | undefined {
  const name = entry.toLowerCase()
  if (name === '*') {
    return 'is not a host name: name each host (bound to an address that is not loopback, with MOVIE_LOG_HOSTS unset, every host is answered)'
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(name)) return 'is a URL: give its host name alone'
  if (/[\s;]/.test(name)) return 'is not one host name: separate host names with commas'
  if (name.endsWith('.') || /\.:\d+$/.test(name)) {
    return 'ends in a dot, which no request is answered for: write the name without it'
  }
  let written: string | undefined
  try {
    written = new URL(`http://${name}`).host
  } catch {
    written = undefined
  }
  if (!HOST_ENTRY.test(name) || written === undefined) {
    return 'is not a host name or address (as movies.example, 192.168.1.20 or [fd00::1])'
  }
  if (hostName(written) !== hostName(name))
    return `is written '${written}' in requests: write it so`
  return undefined
}
