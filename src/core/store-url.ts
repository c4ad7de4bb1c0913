/**
 * Store URLs as they may be printed: the one function every message, log line and error that
 * names a store URL goes through.
 */

// Query parameters that carry a secret (`password`, `sslpassword`, `pass`, `pwd`, `token`,
// `apikey`, `secret`, `auth`, credentials, signatures): their values are hidden.
const SECRET_PARAMETER = /pass|pwd|secret|token|key|auth|cred|sig/i
// A parameter name as stores spell them: anything else may be a secret typed in the wrong place.
const PARAMETER_NAME = /^[\w.-]*$/
// Where the query starts: the first `?` followed by a parameter name and `=`. A bare `?` may be
// part of a password typed unencoded (`u:p?ss@host`).
const QUERY_START = /\?[\w.-]*=/
// Schemes with no credentials: a path is shown as it is.
const NO_CREDENTIALS = /^(sqlite|memory):$/i

/**
 * The store URL with every secret in it replaced by `***`, for logs and error messages: the
 * password of its user info (which may hold `@`, `/` or `?` typed unencoded: the user info ends
 * at the last `@` before the query) and the values of secret-like query parameters. A URL that
 * is malformed even so is shown as its scheme only.
 *
 * @example
 * ```ts
 * redact('postgres://me:p@ss@db/movies?sslpassword=x') // 'postgres://me:***@db/movies?sslpassword=***'
 * ```
 */
export function redact(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0]
  if (scheme === undefined) return '***'
  if (NO_CREDENTIALS.test(scheme)) return url
  if (!url.startsWith('//', scheme.length)) return `${scheme}***`
  const rest = url.slice(scheme.length + 2)
  // Else the first `?` after the user info: a query with no `name=` is still a query.
  const query = QUERY_START.exec(rest)?.index ?? rest.indexOf('?', rest.lastIndexOf('@') + 1)
  const head = query >= 0 ? rest.slice(0, query) : rest
  const at = head.lastIndexOf('@')
  const colon = head.slice(0, Math.max(at, 0)).indexOf(':')
  const authority = at >= 0 && colon >= 0 ? `${head.slice(0, colon)}:***${head.slice(at)}` : head
  const parameters = query >= 0 ? `?${redactQuery(rest.slice(query + 1))}` : ''
  const shown = `${scheme}//${authority}${parameters}`
  // A cluster URL names several hosts: the first stands for all in the check.
  return URL.canParse(shown.replace(/,[^/?#]*/, '')) ? shown : `${scheme}//***`
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((parameter) => {
      const equals = parameter.indexOf('=')
      const name = equals < 0 ? parameter : parameter.slice(0, equals)
      if (!PARAMETER_NAME.test(name)) return '***'
      return equals >= 0 && SECRET_PARAMETER.test(name) ? `${name}=***` : parameter
    })
    .join('&')
}
