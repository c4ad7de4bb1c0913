/**
 * Serving the diary page: its HTML for one mount (base path, the log's path), its hashed assets,
 * and its service worker, compressed as the browser allows, with cache headers and a CSP that
 * allows nothing from another host. `toPageHandler` (./handler.ts) and the server use it.
 */
import Negotiator from 'negotiator'
import type { MovieLog, MovieLogs } from '../../core/movie-log'
import type { DiaryPage, Encoded, Encoder } from './assets'
import { sharedPage, sharedTemplate } from './shared'

/** Only this host's own files and fetches; no inline script, no framing. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

/** Headers every answer of the page carries. */
export const SAFE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
}
// Hashed names change with their content: a year, never revalidated. The HTML is revalidated.
const IMMUTABLE = 'public, max-age=31536000, immutable'
const REVALIDATE = 'no-cache'
const HTML = 'text/html; charset=utf-8'
const SCRIPT = 'text/javascript; charset=utf-8'

/** Where the page is and what it talks to. */
export interface PageMount {
  /** The log's path on this host, as the browser sees it: `/movies`. */
  api: string
  /** Where the page is mounted: '' (the root) or a path such as `/diary`. */
  basePath?: string
  /** A link to the API reference for the page's header (the server's `/docs`); none when unset. */
  docs?: string
  /** The log or logs whose share links the page serves at `{basePath}/s/<token>`; none unset. */
  shares?: MovieLog | MovieLogs
  /** Where the log serves share links' listings and feeds; `{api}/s` when unset. */
  shareApi?: string
}

interface Prepared {
  html: Encoded
  sw: Encoded
  assets: DiaryPage['assets']
  /** The read-only page of a share link, its link's path left to fill in. */
  shared: string | undefined
}

const SHARED_PATH = /^\/s\/([^/]+)$/

/**
 * A web-standard handler serving the page that `load` gives (undefined: not built), what it
 * makes per mount (the HTML, the service worker) prepared by `encode`.
 */
export function createPageServer(
  load: () => Promise<DiaryPage | undefined>,
  mount: PageMount,
  encode: Encoder,
): (request: Request) => Promise<Response> {
  if (!/^\/(?!\/)/.test(mount.api)) {
    throw new TypeError(`api must be a path on the page's host, such as /movies: ${mount.api}`)
  }
  const base = (mount.basePath ?? '').replace(/\/+$/, '')
  if (base && !/^\/(?!\/)/.test(base)) {
    throw new TypeError(`basePath must be a path such as /diary: ${mount.basePath}`)
  }
  let prepared: Promise<Prepared | undefined> | undefined
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return problem(405, 'Method Not Allowed', 'This resource answers GET, HEAD.', {
        allow: 'GET, HEAD',
      })
    }
    prepared ??= load().then((page) => page && prepare(page, base, mount, encode))
    const page = await prepared
    let path = new URL(request.url).pathname
    // Mounted by a router that strips the base (h3, Hono) or not (Node, Express): both work.
    if (base && (path === base || path.startsWith(`${base}/`))) path = path.slice(base.length)
    const answer = (body: Encoded, type: string, cache: string, extra = {}) =>
      respond(request, body, { 'content-type': type, 'cache-control': cache, ...extra })
    if (path === '' || path === '/' || path === '/index.html') {
      return page
        ? answer(page.html, HTML, REVALIDATE)
        : answer(encode(NOT_BUILT), HTML, REVALIDATE)
    }
    // The worker's scope is the base path: its script is revalidated, so a new page reaches it.
    if (path === '/sw.js' && page) {
      return answer(page.sw, SCRIPT, REVALIDATE, { 'service-worker-allowed': base || '/' })
    }
    const token = mount.shares && SHARED_PATH.exec(path)?.[1]
    if (token && mount.shares) {
      const shareApi = mount.shareApi ?? `${mount.api.replace(/\/+$/, '')}/s`
      return sharedPage(
        request,
        token,
        page?.shared,
        { shares: mount.shares, shareApi },
        SAFE_HEADERS,
      )
    }
    const asset = path.startsWith('/assets/') ? page?.assets.get(path.slice(8)) : undefined
    if (asset) return answer(asset, asset.type, IMMUTABLE)
    return problem(404, 'Not Found', 'Not found.')
  }
}

// An error as the log answers its own (RFC 9457 problem details, src/http/problem.ts), written
// here: the page's handler loads nothing of the HTTP layer.
function problem(
  status: number,
  title: string,
  detail: string,
  headers: Record<string, string> = {},
): Response {
  const body = JSON.stringify({ type: 'about:blank', title, status, detail })
  return new Response(body, {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers, ...SAFE_HEADERS },
  })
}

function prepare(page: DiaryPage, base: string, mount: PageMount, encode: Encoder): Prepared {
  const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
  let html = page.html
    .replaceAll('"/assets/', `"${base}/assets/`)
    .replace(/(<meta name="movie-log-api" content=")[^"]*"/, `$1${attribute(mount.api)}"`)
    .replace(/(<meta name="movie-log-base" content=")[^"]*"/, `$1${attribute(base)}"`)
  html = mount.docs
    ? html.replace('href="/docs"', `href="${attribute(mount.docs)}"`)
    : html.replace(/<p class="links">.*?<\/p>/s, '')
  // The diary's files, not the read-only page's script (nor the worker itself).
  const shell = [...page.assets.keys()]
    .filter((name) => !name.startsWith('sw-') && !name.startsWith('shared-'))
    .sort()
  const worker = [...page.assets].find(([name]) => name.startsWith('sw-'))?.[1]
  // What the worker keeps: the page and its assets, under a cache named by their hashes.
  const config = {
    version: shell.map((name) => name.replace(/^.*-|\..*$/g, '')).join('-'),
    page: `${base}/`,
    assets: shell.map((name) => `${base}/assets/${name}`),
  }
  const sw = `self.MOVIE_LOG_SHELL=${JSON.stringify(config)};\n${worker ? new TextDecoder().decode(worker.plain) : ''}`
  return {
    html: encode(new TextEncoder().encode(html)),
    sw: encode(new TextEncoder().encode(sw)),
    assets: page.assets,
    shared: sharedTemplate(page, html),
  }
}

// The best encoding the request accepts of those the body has, by negotiator (q=0 refuses
// one): ties go to brotli, then gzip, then none (negotiator 1's `preferred`, which
// @types/negotiator 0.6 does not know). A Worker's bodies are plain: the platform compresses.
function respond(request: Request, body: Encoded, headers: Record<string, string>): Response {
  const acceptEncoding = request.headers.get('accept-encoding') ?? ''
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } })
  const codings = CODINGS.filter((each) => body[each] !== undefined)
  const chosen = (negotiator.encoding as PreferringEncoding)([...codings, 'identity'], {
    preferred: codings,
  })
  const coding = codings.find((each) => each === chosen)
  const all: Record<string, string> = { ...headers, vary: 'accept-encoding', ...SAFE_HEADERS }
  if (coding) all['content-encoding'] = coding
  const bytes = (coding && body[coding]) || body.plain
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(bytes), { headers: all })
}

const CODINGS: ('br' | 'gzip')[] = ['br', 'gzip']
type PreferringEncoding = (available: string[], options: { preferred: string[] }) => string

const NOT_BUILT =
  new TextEncoder().encode(`<!doctype html><html lang="en"><meta charset="utf-8"><title>movie-log</title>
<h1>movie-log</h1><p>The diary page is not built: run <code>npm run build</code>.</p></html>`)
