/**
 * What the example server shows people: the diary page at `/` (for a browser's Accept), its
 * hashed assets, and the API reference at `/docs`. Nothing is loaded from another host, and
 * the Content-Security-Policy says so to the browser.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { getRouterParam, type H3 } from 'h3'
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
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
}

interface Asset {
  type: string
  plain: Buffer
  gzipped: Buffer
}

/**
 * The built page (`npm run build` writes dist/page/): beside the bundled server in the
 * package, in dist/ when run from source, or where MOVIE_LOG_PAGE_DIR says.
 */
export function findPageDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [
    env.MOVIE_LOG_PAGE_DIR,
    fileURLToPath(new URL('./page/', import.meta.url)),
    fileURLToPath(new URL('../dist/page/', import.meta.url)),
  ]
  return candidates.find((dir) => dir && existsSync(join(dir, 'index.html')))
}

/** Adds `/`, `/assets/:name` and `/docs` to `app`; `pointer` is what JSON callers get at `/`. */
export function addSite(app: H3, pageDir: string | undefined, pointer: object): H3 {
  const html = pageDir ? readFileSync(join(pageDir, 'index.html')) : NOT_BUILT
  const assets = pageDir ? readAssets(join(pageDir, 'assets')) : new Map<string, Asset>()
  const docs = Buffer.from(renderDocs('/movies'))
  const page = (body: Buffer | string) =>
    new Response(new Uint8Array(body instanceof Buffer ? body : Buffer.from(body)), {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': REVALIDATE,
        vary: 'accept',
        ...SAFE,
      },
    })
  return app
    .get('/', (event) => (wantsHtml(event.req.headers.get('accept')) ? page(html) : pointer))
    .get('/docs', () => page(docs))
    .get(
      '/docs.css',
      () =>
        new Response(DOCS_CSS, {
          headers: {
            'content-type': TYPES['.css'] as string,
            'cache-control': 'public, max-age=3600',
            ...SAFE,
          },
        }),
    )
    .get('/assets/:name', (event) => {
      const asset = assets.get(getRouterParam(event, 'name') ?? '')
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

// Read once at start: a handful of small files, compressed once rather than per request.
function readAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>()
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const type = TYPES[name.slice(name.lastIndexOf('.'))]
    if (!type) continue
    const plain = readFileSync(join(dir, name))
    assets.set(name, { type, plain, gzipped: gzipSync(plain, { level: 9 }) })
  }
  return assets
}

const NOT_BUILT = `<!doctype html><html lang="en"><meta charset="utf-8"><title>movie-log</title>
<h1>movie-log</h1><p>The diary page is not built: run <code>npm run build</code>. The log itself
is at <a href="/movies">/movies</a>, its API reference at <a href="/docs">/docs</a>.</p></html>`
