/**
 * The Share control's calls of the person's own routes (`{log}/share`, `{log}/webhooks`), through
 * the page's session: the tab's token, and a change refused for want of one asks for it (a read
 * does not: opening the control is no reason to). Plain `fetch` rather than the client, whose
 * code stays in the page's script; a failure is thrown in the words `explain.ts` gives the
 * client's.
 */
import type { MovieLogHttpError } from '../../client/index'
import type { Session } from './token'

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

/**
 * `HttpError`: the client's `MovieLogHttpError`, handed over by the page's script (the session
 * knows a refusal by it, and this script carries none of the client).
 */
export function ownRoutes(
  logUrl: string,
  session: Session,
  HttpError: typeof MovieLogHttpError,
): OwnRoutes {
  const send = async (path: string, method: string, body?: object) => {
    const headers: Record<string, string> = { accept: 'application/json' }
    const bearer = session.token()
    if (bearer) headers.authorization = `Bearer ${bearer}`
    if (body) headers['content-type'] = 'application/json'
    const response = await fetch(`${logUrl}${path}`, {
      method,
      headers,
      body: body && JSON.stringify(body),
    }).catch(() => {
      throw new Refused('Could not reach the server: check the connection, then try again.')
    })
    if (response.status === 401 || response.status === 403) throw new HttpError(response.status)
    if (response.status === 204 || response.status === 404) return undefined
    const answer = await response.json().catch(() => ({}))
    if (response.ok) return answer
    const { detail, errors = [] } = answer as { detail?: string; errors?: FieldProblem[] }
    // A 400 names each field it refused (`url is a loopback address…`), as the API calls it.
    const named = errors.map((field) => `${field.pointer?.slice(1) ?? ''} ${field.detail}`.trim())
    const why = named.length ? named.join('; ') : (detail ?? `HTTP ${response.status}`)
    throw new Refused(`The server refused: ${why}`, errors)
  }
  return <T>(path: string, method = 'GET', body?: object) =>
    session
      .run('change what you share', () => send(path, method, body), method === 'GET')
      .then((answer) => answer as T | undefined)
      .catch((error: Error) => {
        if (error instanceof Refused) throw error
        // Refused for want of a token: a read said so, a change whose token was not given.
        throw new Refused(
          method === 'GET'
            ? 'Your token is needed to show this: the page asks for it when you change something.'
            : 'Nothing was changed: it needs your token.',
        )
      })
}
