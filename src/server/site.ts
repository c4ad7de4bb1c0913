/**
 * What the server shows people: the diary page at `/` (for a browser's Accept) with its assets
 * and service worker, served by the page's own handler as an app's `toPageHandler` serves it,
 * and the API reference at `/docs`. Nothing is loaded from another host.
 */
import type { H3 } from 'h3'
import { preferredType } from '../http/accept'
import { ASSET_TYPES, type DiaryPage, encode } from '../page/server/files'
import { createPageServer, SAFE_HEADERS } from '../page/server/serve'
import { DOCS_CSS, renderDocs } from './docs'

export { CONTENT_SECURITY_POLICY } from '../page/server/serve'

/**
 * Adds `/`, `/assets/:name`, `/sw.js` and `/docs` to `app`; `pointer` is what JSON callers get
 * at `/`. `page` gives the diary page (awaited on the first request that needs it), or
 * undefined when there is none to serve.
 */
export function addSite(app: H3, page: () => Promise<DiaryPage | undefined>, pointer: object): H3 {
  const docs = renderDocs('/movies')
  const serve = createPageServer(page, { api: '/movies', docs: '/docs' }, encode)
  return app
    .get('/', async (event) => {
      if (!wantsHtml(event.req.headers.get('accept'))) return pointer
      const response = await serve(event.req)
      // The same URL answers JSON callers with the pointer.
      response.headers.set('vary', 'accept, accept-encoding')
      return response
    })
    .get('/assets/:name', (event) => serve(event.req))
    .get('/sw.js', (event) => serve(event.req))
    .get(
      '/docs',
      () =>
        new Response(docs, {
          headers: {
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'no-cache',
            ...SAFE_HEADERS,
          },
        }),
    )
    .get(
      '/docs.css',
      () =>
        new Response(DOCS_CSS, {
          headers: {
            'content-type': ASSET_TYPES['.css'] as string,
            'cache-control': 'public, max-age=3600',
            ...SAFE_HEADERS,
          },
        }),
    )
}

// A browser names text/html; curl (*/*) and JSON callers get the pointer, as before the page.
// The one negotiation of src/http/accept.ts: HTML when the header prefers it to JSON.
function wantsHtml(accept: string | null): boolean {
  return preferredType(accept, ['application/json', 'text/html'], ['text/html']) === 'text/html'
}
