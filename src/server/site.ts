/**
 * What the server shows people: the diary page at `/` (for a browser's Accept) with its assets
 * and service worker, served by the page's own handler as an app's `toPageHandler` serves it,
 * and the API reference at `/docs`. Nothing is loaded from another host.
 */
import type { H3, H3Event } from 'h3'
import type { MovieLog, MovieLogs } from '../core/movie-log'
import { preferredType } from '../http/accept'
import { ASSET_TYPES, type DiaryPage, encode } from '../page/server/files'
import { createPageServer, SAFE_HEADERS } from '../page/server/serve'
import { DOCS_CSS, renderDocs } from './docs'

export { CONTENT_SECURITY_POLICY } from '../page/server/serve'

/** What the site serves of share links: whose, and how the log answers the rest of them. */
export interface SiteShares {
  logs: MovieLog | MovieLogs
  /** The log's answer at `/s/…` (a link's listing and feeds, its JSON pointer). */
  reply: (event: H3Event) => Promise<Response>
}

/**
 * Adds `/`, `/assets/:name`, `/sw.js` and `/docs` to `app`; `pointer` is what JSON callers get
 * at `/`. `page` gives the diary page (awaited on the first request that needs it), or
 * undefined when there is none to serve. Share links live at `/s/<token>`: the read-only page
 * for a browser, the log's answer below it and for everyone else.
 */
export function addSite(
  app: H3,
  page: () => Promise<DiaryPage | undefined>,
  pointer: object,
  shares?: SiteShares,
): H3 {
  const docs = renderDocs('/movies')
  const mount = { api: '/movies', docs: '/docs', shares: shares?.logs, shareApi: '/s' }
  const serve = createPageServer(page, mount, encode)
  if (shares) {
    app
      .all('/s/:token', async (event) => {
        const read = event.req.method === 'GET' || event.req.method === 'HEAD'
        if (!read || !wantsHtml(event.req.headers.get('accept'))) return shares.reply(event)
        const response = await serve(event.req)
        response.headers.set('vary', 'accept, accept-encoding')
        return response
      })
      .all('/s/**', (event) => shares.reply(event))
  }
  return (
    app
      .get('/', async (event) => {
        if (!wantsHtml(event.req.headers.get('accept'))) return pointer
        const response = await serve(event.req)
        // The same URL answers JSON callers with the pointer.
        response.headers.set('vary', 'accept, accept-encoding')
        return response
      })
      .get('/assets/:name', (event) => serve(event.req))
      .get('/sw.js', (event) => serve(event.req))
      // Trakt's `verification_url` (src/http/trakt/): the page, at its panel for the app's code.
      .get('/activate', () => new Response(null, { status: 302, headers: { location: '/#trakt' } }))
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
  )
}

// A browser names text/html; curl (*/*) and JSON callers get the pointer, as before the page.
// The one negotiation of src/http/accept.ts: HTML when the header prefers it to JSON.
function wantsHtml(accept: string | null): boolean {
  return preferredType(accept, ['application/json', 'text/html'], ['text/html']) === 'text/html'
}
