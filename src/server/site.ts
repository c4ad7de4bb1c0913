/**
 * What the server shows people: the diary page at `/` (for a browser's Accept), its
 * hashed assets, and the API reference at `/docs`. Nothing is loaded from another host, and
 * the Content-Security-Policy says so to the browser.
 */
import { getRouterParam, type H3 } from 'h3'
import { ASSET_TYPES, type DiaryPage } from './diary-page'
import { DOCS_CSS, renderDocs } from './docs'

/** Only this server's own files and fetches; no inline script, no framing. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

const SAFE = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
}
// Hashed names change with their content: a year, never revalidated. The HTML is revalidated.
const IMMUTABLE = 'public, max-age=31536000, immutable'
const REVALIDATE = 'no-cache'

/**
 * Adds `/`, `/assets/:name` and `/docs` to `app`; `pointer` is what JSON callers get at `/`.
 * `page` gives the diary page (awaited on the first request that needs it), or undefined when
 * there is none to serve.
 */
export function addSite(app: H3, page: () => Promise<DiaryPage | undefined>, pointer: object): H3 {
  const docs = Buffer.from(renderDocs('/movies'))
  const html = (body: Buffer | string) =>
    new Response(new Uint8Array(body instanceof Buffer ? body : Buffer.from(body)), {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': REVALIDATE,
        vary: 'accept',
        ...SAFE,
      },
    })
  return app
    .get('/', async (event) => {
      if (!wantsHtml(event.req.headers.get('accept'))) return pointer
      return html((await page())?.html ?? NOT_BUILT)
    })
    .get('/docs', () => html(docs))
    .get(
      '/docs.css',
      () =>
        new Response(DOCS_CSS, {
          headers: {
            'content-type': ASSET_TYPES['.css'] as string,
            'cache-control': 'public, max-age=3600',
            ...SAFE,
          },
        }),
    )
    .get('/assets/:name', async (event) => {
      const asset = (await page())?.assets.get(getRouterParam(event, 'name') ?? '')
      if (!asset) return new Response('Not found', { status: 404, headers: SAFE })
      const gzip = /\bgzip\b/.test(event.req.headers.get('accept-encoding') ?? '')
      const headers: Record<string, string> = {
        'content-type': asset.type,
        'cache-control': IMMUTABLE,
        vary: 'accept-encoding',
        ...SAFE,
      }
      if (gzip) headers['content-encoding'] = 'gzip'
      return new Response(new Uint8Array(gzip ? asset.gzipped : asset.plain), { headers })
    })
}

// A browser names text/html; curl (*/*) and JSON callers get the pointer, as before the page.
function wantsHtml(accept: string | null): boolean {
  return (accept ?? '').split(',').some((range) => {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase())
    return type === 'text/html' && !parameters.some((p) => /^q=0(\.0*)?$/.test(p))
  })
}

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>movie-log</title>
<h1>movie-log</h1><p>The diary page is not built: run <code>npm run build</code>. The log itself
is at <a href="/movies">/movies</a>, its API reference at <a href="/docs">/docs</a>.</p></html>`
