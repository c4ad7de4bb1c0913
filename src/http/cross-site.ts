/**
 * Which writes a browser may make: the guard against cross-site request forgery. A page on
 * another site can post a plain form (urlencoded, `multipart/form-data`, `text/plain`) or a
 * `no-cors` fetch without a preflight, so CORS alone never sees it; what the browser adds to
 * such a request (`Origin`, `Sec-Fetch-Site`, `Sec-Fetch-Mode`) is read here instead. Media
 * servers, scripts and the client on Node send none of these headers, and are never refused.
 */
import type { CorsOrigins } from './cors'
import { problemReply } from './problem'
import type { Reply } from './reply'
import { originOf } from './request'

// What a browser's form post or `no-cors` fetch is sent as: a write never comes that way from
// the page or the client, which fetch in `cors` or `same-origin` mode.
const FORM_MODES = new Set(['navigate', 'nested-navigate', 'no-cors'])

/**
 * The 403 for a write a browser sent from another origin (neither this one nor one `cors`
 * allows), or as a form or `no-cors` request; `undefined` for a write that may go on.
 */
export function crossSiteRefusal(
  request: Request,
  url: URL,
  cors: CorsOrigins | undefined,
): Reply | undefined {
  const { headers } = request
  const mode = headers.get('sec-fetch-mode')
  if (mode !== null && FORM_MODES.has(mode)) {
    return refuse(`a browser's ${mode === 'no-cors' ? 'no-cors request' : 'form post'}`)
  }
  const origin = headers.get('origin')
  const site = headers.get('sec-fetch-site')
  // The browser says the page is this origin's (behind a proxy, Origin may name the public one).
  if (site === 'same-origin') return undefined
  if (origin === null) {
    return site === null || site === 'none' ? undefined : refuse(`a ${site} page`)
  }
  // Its own host: behind a proxy that ends TLS, the page's `https:` origin meets an `http:` URL.
  if (origin === originOf(url) || hostOf(origin) === url.host) return undefined
  if (cors === '*' || cors?.includes(origin)) return undefined
  return refuse(origin === 'null' ? 'a page of no origin' : `the origin ${origin}`)
}

const hostOf = (origin: string) => (URL.canParse(origin) ? new URL(origin).host : undefined)

function refuse(from: string): Reply {
  return problemReply(
    403,
    `Writes from ${from} are refused: the movie log takes writes from this origin, from origins its CORS setting allows, and from programs that send no Origin.`,
  )
}
