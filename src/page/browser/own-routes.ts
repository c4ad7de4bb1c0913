/**
 * The Share control's calls of the person's own routes (`{log}/share`, `{log}/webhooks`), with
 * the tab's token. Plain `fetch` rather than the client, whose code stays in the page's script;
 * a failure is thrown in the words `explain.ts` gives the client's.
 */

/** A field the server named in a 400: `pointer` into the body sent (`/url`), and what is wrong. */
export interface FieldProblem {
  pointer?: string
  detail: string
}

/** A call that failed: `message`, a sentence for the person; `fields`, what a 400 named. */
export class Refused extends Error {
  override name = 'Refused'
  constructor(
    message: string,
    readonly fields: FieldProblem[] = [],
  ) {
    super(message)
  }
}

/** Calls `{log}{path}`: the JSON answered, or `undefined` for a 204 or a 404. */
export type OwnRoutes = <T>(path: string, method?: string, body?: object) => Promise<T | undefined>

export function ownRoutes(logUrl: string, token: () => string | null): OwnRoutes {
  return async <T>(path: string, method = 'GET', body?: object) => {
    const headers: Record<string, string> = { accept: 'application/json' }
    const bearer = token()
    if (bearer) headers.authorization = `Bearer ${bearer}`
    if (body) headers['content-type'] = 'application/json'
    const response = await fetch(`${logUrl}${path}`, {
      method,
      headers,
      body: body && JSON.stringify(body),
    }).catch(() => {
      throw new Refused('Could not reach the server: check the connection, then try again.')
    })
    if (response.status === 204 || response.status === 404) return undefined
    const answer = await response.json().catch(() => ({}))
    if (response.ok) return answer as T
    const { detail, errors = [] } = answer as { detail?: string; errors?: FieldProblem[] }
    // A 400 names each field it refused (`url is a loopback address…`), as the API calls it.
    const named = errors.map((field) => `${field.pointer?.slice(1) ?? ''} ${field.detail}`.trim())
    const why = named.length ? named.join('; ') : (detail ?? `HTTP ${response.status}`)
    throw new Refused(`The server refused: ${why}`, errors)
  }
}
