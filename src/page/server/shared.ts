/**
 * A share link's read-only page, `{basePath}/s/<token>`: the diary page as built, with what only
 * its owner may use left out (the parts marked `<!--o-->…<!--/o-->` in index.html: the add form,
 * the search, the panels, the token prompt, the share control), the read-only script in place
 * of the diary's, its data and feeds at the link's listing (`{shareApi}/<token>/movies`, `/rss`,
 * `/ics`), `noindex` unless its owner lets search engines in. Served only for a live link: an
 * unknown token and a revoked one are the same 404.
 */
import type { MovieLog, MovieLogs } from '../../core/movie-log'
import { sha256Hex } from '../../core/sha256'
import { openShare } from '../../core/share-open'
import type { DiaryPage } from './assets'

/** The read-only page's template, made once per mount; `{{feeds}}` is the link's data path. */
export function sharedTemplate(page: DiaryPage, html: string): string | undefined {
  const script = [...page.assets.keys()].find((name) => name.startsWith('shared-'))
  if (!script) return undefined
  const feeds = (type: string, kind: string, title: string) =>
    `<link rel="alternate" type="${type}" title="Movie diary (${title})" href="{{feeds}}/${kind}">`
  return html
    .replace(/<!--o-->[\s\S]*?<!--\/o-->/g, '')
    .replace(/<p class="links">.*?<\/p>/s, '')
    .replace(/assets\/diary-[A-Za-z0-9]+\.js/, `assets/${script}`)
    .replace(/(<meta name="movie-log-api" content=")[^"]*"/, '$1{{feeds}}/movies"')
    .replace('<title>Movie diary</title>', '<title>Movie diary (shared)</title>{{robots}}')
    .replace(
      '</head>',
      `${feeds('application/rss+xml', 'rss', 'RSS')}\n${feeds('text/calendar', 'ics', 'calendar')}\n</head>`,
    )
    .replace(
      '</h1>',
      '</h1>\n  <p class="links">Shared to read. <a href="{{feeds}}/rss">RSS</a> · <a href="{{feeds}}/ics">Calendar</a></p>',
    )
}

/** Where a share link's page finds its diary. */
export interface ShareMount {
  /** The log or logs whose links the page serves. */
  shares: MovieLog | MovieLogs
  /** Where the log serves the links' listing and feeds: `{api}/s` unless the host says. */
  shareApi: string
}

/**
 * The read-only page of `token`'s diary, or a 404 for a link that is not live. `safe`: the
 * page's own headers; an `ETag` of the HTML answers a matching `If-None-Match` with 304.
 */
export async function sharedPage(
  request: Request,
  token: string,
  template: string | undefined,
  mount: ShareMount,
  safe: Record<string, string>,
): Promise<Response> {
  const shared = template ? await openShare(mount.shares, token) : undefined
  const robots: Record<string, string> = shared?.link.index ? {} : { 'x-robots-tag': 'noindex' }
  if (!template || !shared) {
    const body = JSON.stringify({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'Not found.',
    })
    return new Response(body, {
      status: 404,
      headers: { 'content-type': 'application/problem+json', ...robots, ...safe },
    })
  }
  const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
  const html = template
    .replaceAll('{{feeds}}', attribute(`${mount.shareApi}/${encodeURIComponent(token)}`))
    .replace('{{robots}}', shared.link.index ? '' : '\n<meta name="robots" content="noindex">')
  const etag = `"${sha256Hex(html).slice(0, 32)}"`
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    etag,
    ...robots,
    ...safe,
  }
  const fresh = request.headers.get('if-none-match')?.includes(etag)
  if (fresh) return new Response(null, { status: 304, headers })
  return new Response(request.method === 'HEAD' ? null : html, { headers })
}
