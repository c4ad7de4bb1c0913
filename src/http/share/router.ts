/**
 * A share link's routes below `{base}/s/`: `/<token>` (where the rest is), `/<token>/movies`
 * (the listing, as `GET {base}` answers it, notes left out unless the owner shares them),
 * `/<token>/rss` and `/<token>/ics`. Read-only, asked no token: the link is the key, and it
 * opens one diary. An unknown token and a revoked one get the same 404.
 */
import { InvalidPageRequestError } from '../../core/errors'
import type { ListMoviesOptions } from '../../core/listing'
import type { Movie } from '../../core/movie'
import type { MovieLog, MovieLogs } from '../../core/movie-log'
import { sha256Hex } from '../../core/sha256'
import type { ShareLink } from '../../core/share'
import { openShare, type SharedDiary } from '../../core/share-open'
import { acceptsJson } from '../accept'
import { noneMatchHits } from '../conditions'
import { listMovies } from '../list'
import { errorReply, problemReply } from '../problem'
import { JSON_TYPE, jsonReply, type Reply } from '../reply'
import { feedReply } from './feeds'

const SHARED = /^\/([^/]+)(?:\/(movies|rss|ics))?$/
type Part = 'movies' | 'rss' | 'ics' | undefined
const READ_METHODS = 'GET, HEAD'

/** What every answer from a share link carries: the page's own safety headers. */
const SAFE: Record<string, string> = {
  'content-security-policy': "default-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  // The token is in the URL: a link followed from the page must not carry it away.
  'referrer-policy': 'no-referrer',
}

/** What the routes need of the handler. */
export interface ShareSettings {
  /**
   * `{origin}{base}/s`: where the links are, for the URLs the answers name (a host may have
   * stripped its mount from the path, as Express does; the server also answers at `/s`).
   */
  links: string
  maxPageSize: number
  timeZone: string | undefined
  /** The handler's bound on open streams (a whole listing streamed). */
  streamed: (open: () => Promise<Reply>) => Promise<Reply>
}

/** Answers `rest`, the path below `{base}/s`. */
export async function replyToShare(
  source: MovieLog | MovieLogs,
  request: Request,
  url: URL,
  rest: string,
  settings: ShareSettings,
): Promise<Reply> {
  const [, token = '', found] = SHARED.exec(rest) ?? []
  const part = found as Part
  if (!token) return withSafety(notFound(), undefined)
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return withSafety(
      problemReply(405, `A share link answers ${READ_METHODS}.`, { allow: READ_METHODS }),
      undefined,
    )
  }
  const shared = await openShare(source, token)
  if (!shared) return withSafety(notFound(), undefined)
  try {
    return conditional(
      request,
      withSafety(await replyFor(shared, request, url, part, settings), shared.link),
    )
  } catch (error) {
    // A refused request (a `q`, a cursor not ours) carries the link's headers too; a 500 is the
    // handler's to log.
    const refused = errorReply(error)
    if (refused.status >= 500) throw error
    return withSafety(refused, shared.link)
  }
}

async function replyFor(
  { log, link }: SharedDiary,
  request: Request,
  url: URL,
  part: Part,
  settings: ShareSettings,
): Promise<Reply> {
  const linkUrl = `${settings.links}/${link.token}`
  const here = part ? `${linkUrl}/${part}` : linkUrl
  if (part === undefined) {
    const pointer = { movies: `${linkUrl}/movies`, rss: `${linkUrl}/rss`, ics: `${linkUrl}/ics` }
    return jsonReply(200, JSON.stringify(pointer), {})
  }
  if (part !== 'movies') {
    return feedReply(log, link, part, { link: linkUrl, self: here }, settings.timeZone)
  }
  if (!acceptsJson(request.headers.get('accept'))) {
    return problemReply(406, `This resource is only available as ${JSON_TYPE}.`)
  }
  // Its next links under the base path, as the collection's are.
  return listMovies(shownLog(log, link), url, settings.maxPageSize, here, settings.streamed)
}

function notFound(): Reply {
  return problemReply(404, 'Not found.')
}

/** The log as the link shows it: notes left out unless shared, and no search of them. */
function shownLog(log: MovieLog, link: ShareLink): Pick<MovieLog, 'listMovies'> {
  return {
    async listMovies(options: ListMoviesOptions = {}) {
      // Words found only in the notes would tell what the notes say.
      if (!link.notes && options.q !== undefined) {
        throw new InvalidPageRequestError([
          { path: 'q', message: 'is not taken by a share link that does not show the notes' },
        ])
      }
      const page = await log.listMovies(options)
      return link.notes ? page : { ...page, movies: page.movies.map(withoutNotes) }
    },
  }
}

function withoutNotes(movie: Movie): Movie {
  const { notes: _, ...shown } = movie
  return shown as Movie
}

function withSafety(reply: Reply, link: ShareLink | undefined): Reply {
  Object.assign(reply.headers, SAFE)
  if (!link?.index) reply.headers['x-robots-tag'] = 'noindex'
  return reply
}

/** An `ETag` from the body's SHA-256, and 304 for a matching `If-None-Match` or a date not older. */
function conditional(request: Request, reply: Reply): Reply {
  if (reply.status !== 200 || typeof reply.body !== 'string') return reply
  const etag = `"${sha256Hex(reply.body).slice(0, 32)}"`
  reply.headers.etag = etag
  const noneMatch = request.headers.get('if-none-match')
  const since = Date.parse(request.headers.get('if-modified-since') ?? '')
  const modified = Date.parse(reply.headers['last-modified'] ?? '')
  const fresh =
    noneMatch !== null ? noneMatchHits(noneMatch, etag) : !Number.isNaN(since) && modified <= since
  if (!fresh) return reply
  const { 'content-type': _, ...kept } = reply.headers
  return { status: 304, headers: kept, body: null }
}
