import type { Movie, NewMovie } from '../core/movie'
import type { MovieLog, MovieLogs } from '../core/movie-log'
import { acceptsJson, listTypeOf } from './accept'
import { readJsonBody } from './body'
import { catalogReply } from './catalog'
import { etagOf } from './conditions'
import { addCorsHeaders, isPreflight, preflightReply } from './cors'
import { crossSiteRefusal } from './cross-site'
import { changeFeed } from './events'
import { exportReply } from './export'
import { createImportLimit } from './import-limit'
import { deleteMovie, readMovie, updateMovie } from './item'
import { listMovies } from './list'
import { logError } from './log-error'
import { checkHttpOptions, type MovieLogAction, type MovieLogHttpOptions } from './options'
import { ownerLogs } from './owners'
import {
  errorReply,
  methodNotAllowed,
  notAcceptable,
  problemReply,
  unauthenticated,
} from './problem'
import { JSON_TYPE, jsonReply, type Reply, toWebResponse } from './reply'
import {
  isJsonContentType,
  normaliseBasePath,
  notFoundDetail,
  originOf,
  parseIdempotencyKey,
  resolveTarget,
  withQueryToken,
} from './request'
import { statsReply } from './stats'
import { createStreamLimit } from './stream-limit'

// The document's name below the base path. src/openapi/document.ts names it too; importing it
// from there would load the document's code with every handler.
const OPENAPI_FILE = 'openapi.json'
const STATS_PATH = 'stats'
const CATALOG_PATH = 'catalog'
// The owner's own share link (src/http/share/manage.ts).
const SHARE_PATH = 'share'
// Every read of the log may depend on who asks (authorize, owner): no shared cache keeps it, and
// the browser's asks again each time, by the ETag where there is one (a 304 costs no body).
const READ_CACHE = 'private, no-cache'
// Files imported at once (POST {base}/import), each held whole while it is read.
const MAX_CONCURRENT_IMPORTS = 4
const COLLECTION_METHODS = 'GET, HEAD, POST'
const ITEM_METHODS = 'GET, HEAD, PATCH, DELETE'
// The action `authorize` is asked about, per method (a Map: a method named `toString` is none).
const COLLECTION_ACTIONS = new Map<string, MovieLogAction>([
  ['GET', 'list'],
  ['HEAD', 'list'],
  ['POST', 'add'],
])
const SHARE_METHODS = 'GET, HEAD, POST, DELETE'
// Reading the link is reading the diary; making or revoking one, an edit of it.
const SHARE_ACTIONS = new Map<string, MovieLogAction>(
  Object.entries({ GET: 'list', HEAD: 'list', POST: 'update', DELETE: 'update' } as const),
)
const ITEM_ACTIONS = new Map<string, MovieLogAction>([
  ['GET', 'read'],
  ['HEAD', 'read'],
  ['PATCH', 'update'],
  ['DELETE', 'delete'],
])

/**
 * Answers one request: `url` is the request's URL as the host parsed it, and `path` the part
 * of its path the log sees (a host that strips a mount prefix passes what is left).
 */
export type MovieLogReplier = (request: Request, url: URL, path?: string) => Promise<Reply>

/**
 * The HTTP contract of movie-log, written once: request -> core call -> reply. Both adapters
 * are thin shells over the function this returns.
 */
export function createMovieLogReplier(
  source: MovieLog | MovieLogs,
  options: MovieLogHttpOptions = {},
): MovieLogReplier {
  checkHttpOptions(options)
  const logOf = ownerLogs(source, options.owner)
  type Reached = NonNullable<Awaited<ReturnType<typeof logOf>>>
  // Percent-encoded, as hosts pass paths. Appended to an origin, so '//x' stays a path.
  const basePath = normaliseBasePath(options.basePath ?? '/movies')
  const encodedBasePath = new URL(`http://localhost${basePath}`).pathname.replace(/\/$/, '')
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024
  const maxImportBytes = options.maxImportBytes ?? 32 * 1024 * 1024
  const maxPageSize = options.maxPageSize ?? 1000
  const onError = options.onError ?? logError
  const maxConcurrentAdds = options.maxConcurrentAdds ?? 256
  const feed = {
    keepAliveMs: options.keepAliveMs ?? 15_000,
    maxBufferedBytes: options.maxFeedBufferBytes ?? 256 * 1024,
    signal: options.signal,
    onError,
  }
  // The OpenAPI document's code is loaded on its first request: most handlers are never asked.
  let openApiReply: (() => Reply) | undefined
  let scrobbles: Promise<typeof import('./scrobble')> | undefined
  let trakt: Promise<typeof import('./trakt/router')> | undefined
  let shares: Promise<typeof import('./share/router')> | undefined
  let webhooks: Promise<typeof import('./webhooks')> | undefined
  let imports: Promise<typeof import('./import')> | undefined
  let addsInFlight = 0
  // Exports, change feeds and the full JSON list, bounded together (./stream-limit.ts).
  const streams = createStreamLimit(options.maxStreams ?? 256)
  const importing = createImportLimit(MAX_CONCURRENT_IMPORTS)

  // Adds and scrobbles, bounded together: each holds its body while it is read and stored.
  async function adding(run: () => Promise<Reply>): Promise<Reply> {
    if (addsInFlight >= maxConcurrentAdds) {
      return problemReply(503, 'Too many movies are being added right now; try again shortly.', {
        'retry-after': '1',
      })
    }
    addsInFlight++
    try {
      return await run()
    } finally {
      addsInFlight--
    }
  }

  async function add(log: MovieLog, request: Request, url: URL): Promise<Reply> {
    if (!isJsonContentType(request.headers.get('content-type'))) {
      return problemReply(415, `Send the movie as ${JSON_TYPE} (charset utf-8, if any).`, {
        'accept-post': JSON_TYPE,
      })
    }
    return adding(async () => {
      const body = await readJsonBody(request, maxBodyBytes)
      if (!body.ok) {
        // A client past the size limit may still be sending: close rather than read the rest.
        const close: Record<string, string> = body.status === 413 ? { connection: 'close' } : {}
        return problemReply(body.status, body.detail, close)
      }
      const idempotencyKey = parseIdempotencyKey(request.headers.get('idempotency-key'))
      // Any JSON: addMovie checks its input at run time and names every bad field.
      const movie = await log.addMovie(body.value as NewMovie, { idempotencyKey })
      return jsonReply(201, JSON.stringify(movie), {
        location: movieUrl(movie, url),
        etag: etagOf(movie),
      })
    })
  }

  async function scrobbleRoute(request: Request, url: URL, source: string): Promise<Reply> {
    if (options.cors && isPreflight(request)) return preflightReply(options.cors, request, 'POST')
    if (request.method !== 'POST') return methodNotAllowed('POST')
    const crossSite = crossSiteRefusal(request, url, options.cors)
    if (crossSite) return crossSite
    const asked = withQueryToken(request, url)
    const log = (await logOf(asked))?.log
    if (!log) return unauthenticated()
    const refusal = options.authorize && (await denied(asked, options.authorize, 'add'))
    if (refusal) return refusal
    // Loaded on the first scrobble, as the document is: most handlers never get one.
    scrobbles ??= import('./scrobble')
    const { scrobble } = await scrobbles
    return adding(() =>
      scrobble(log, request, source, {
        maxBodyBytes,
        timeZone: options.timeZone,
        catalog: options.catalog,
        movieUrl: (id) => movieUrl({ id }, url),
      }),
    )
  }

  // Trakt's API: its tokens stand for the person who approved them (src/http/trakt/).
  async function traktRoute(request: Request, url: URL, path: string): Promise<Reply> {
    if (options.cors && isPreflight(request))
      return preflightReply(options.cors, request, 'GET, POST, DELETE')
    const read = request.method === 'GET' || request.method === 'HEAD'
    const crossSite = !read && crossSiteRefusal(request, url, options.cors)
    if (crossSite) return crossSite
    trakt ??= import('./trakt/router')
    const { replyToTrakt } = await trakt
    // The person the diary page's request reaches, asked as for an add (approving a code).
    const person = async (asked: Request) => {
      const reached = await logOf(asked)
      const refused =
        reached && options.authorize && (await denied(asked, options.authorize, 'add'))
      return refused ? undefined : reached
    }
    const { catalog } = options
    const settings = {
      source,
      maxBodyBytes,
      timeZone: options.timeZone,
      person,
      match: catalog && (await import('./trakt/context')).catalogMatcher(catalog),
    }
    return adding(() => replyToTrakt(settings, request, url, path))
  }

  // A share link: no owner, no `authorize`, no token asked; read-only (src/http/share/).
  async function sharedRoute(request: Request, url: URL, path: string): Promise<Reply> {
    if (options.cors && isPreflight(request))
      return preflightReply(options.cors, request, 'GET, HEAD')
    shares ??= import('./share/router')
    const { replyToShare } = await shares
    return replyToShare(source, request, url, path, {
      links: `${originOf(url)}${encodedBasePath}/s`,
      maxPageSize,
      timeZone: options.timeZone,
      streamed: (open) => streams(undefined, open),
    })
  }

  // The owner's own share link: reached and authorised as an edit of their diary is.
  async function shareLinkRoute(request: Request, url: URL): Promise<Reply> {
    const gate = await ownersOwn(request, url, SHARE_METHODS, SHARE_ACTIONS.get(request.method))
    if ('refused' in gate) return gate.refused
    const { replyToShareLink } = await import('./share/manage')
    return replyToShareLink(
      gate.reached.log,
      request,
      `${originOf(url)}${encodedBasePath}`,
      maxBodyBytes,
    )
  }

  // An owner's outgoing webhooks (src/http/webhooks.ts): asked of `authorize` as `webhooks`.
  async function webhooksRoute(request: Request, url: URL, path: string): Promise<Reply> {
    webhooks ??= import('./webhooks')
    const routes = await webhooks
    const methods = path === '' || path === '/' ? routes.WEBHOOKS_METHODS : routes.WEBHOOK_METHODS
    const gate = await ownersOwn(request, url, methods, 'webhooks')
    if ('refused' in gate) return gate.refused
    return routes.replyToWebhooks(source, gate.reached.owner, request, path, {
      maxBodyBytes,
      policy: options.webhooks,
      location: (id) => `${originOf(url)}${encodedBasePath}/webhooks/${encodeURIComponent(id)}`,
    })
  }

  // A file into the diary the request reaches (src/http/import.ts): a write, guarded as an add.
  async function importRoute(request: Request, url: URL): Promise<Reply> {
    const action = request.method === 'POST' ? 'add' : undefined
    const gate = await ownersOwn(request, url, 'POST', action)
    if ('refused' in gate) return gate.refused
    imports ??= import('./import')
    const { importReply } = await imports
    const settings = {
      maxImportBytes,
      timeZone: options.timeZone,
      catalog: options.catalog,
      onError: (error: unknown) => onError(error, request),
    }
    return adding(() => importing(() => importReply(gate.reached.log, request, url, settings)))
  }

  /**
   * What a route of the owner's own (the share link, webhooks, an import) asks first: a
   * preflight answered, the method known (`action`), a browser's cross-site write refused, the
   * owner reached, and `authorize` asked.
   */
  async function ownersOwn(
    request: Request,
    url: URL,
    methods: string,
    action: MovieLogAction | undefined,
  ): Promise<{ refused: Reply } | { reached: Reached }> {
    if (options.cors && isPreflight(request)) {
      return { refused: preflightReply(options.cors, request, methods) }
    }
    if (!action) return { refused: methodNotAllowed(methods) }
    const reads = request.method === 'GET' || request.method === 'HEAD'
    const crossSite = !reads && crossSiteRefusal(request, url, options.cors)
    if (crossSite) return { refused: crossSite }
    const reached = await logOf(request)
    if (!reached) return { refused: unauthenticated() }
    const refusal = options.authorize && (await denied(request, options.authorize, action))
    return refusal ? { refused: refusal } : { reached }
  }

  async function denied(
    request: Request,
    authorize: NonNullable<MovieLogHttpOptions['authorize']>,
    action: MovieLogAction,
  ): Promise<Reply | undefined> {
    const decision = await authorize(request, action)
    if (decision === true) return undefined
    if (decision === 403) return problemReply(403, 'You may not do this.')
    return unauthenticated()
  }

  // Location and Link: always under basePath, whatever path the host passed.
  function collectionUrl(url: URL): string {
    return `${originOf(url)}${encodedBasePath || '/'}`
  }

  function movieUrl(movie: Pick<Movie, 'id'>, url: URL): string {
    return `${originOf(url)}${encodedBasePath}/${encodeURIComponent(movie.id)}`
  }

  async function route(request: Request, url: URL, path: string): Promise<Reply> {
    // The host's path is percent-encoded: compared with the encoded base path.
    const target = resolveTarget(path, encodedBasePath)
    if (target.kind === 'none') return problemReply(404, notFoundDetail(path, encodedBasePath))
    if (target.kind === 'scrobble') return scrobbleRoute(request, url, target.source)
    if (target.kind === 'trakt') return traktRoute(request, url, target.path)
    if (target.kind === 'shared') return sharedRoute(request, url, target.path)
    if (target.kind === 'item' && target.id === SHARE_PATH) return shareLinkRoute(request, url)
    if (target.kind === 'webhooks') return webhooksRoute(request, url, target.path)
    if (target.kind === 'import') return importRoute(request, url)
    const allowed = target.kind === 'collection' ? COLLECTION_METHODS : ITEM_METHODS
    if (options.cors && isPreflight(request)) return preflightReply(options.cors, request, allowed)
    const actions = target.kind === 'collection' ? COLLECTION_ACTIONS : ITEM_ACTIONS
    const action = actions.get(request.method)
    // The document describes the API, not the log's movies: open to all, like a robots.txt.
    if (target.kind === 'item' && target.id === OPENAPI_FILE) {
      if (action !== 'read') return methodNotAllowed('GET, HEAD')
      if (!acceptsJson(request.headers.get('accept'))) return notAcceptable(JSON_TYPE)
      openApiReply ??= (await import('./openapi/document')).createOpenApiReply(encodedBasePath)
      return openApiReply()
    }
    if (!action) return methodNotAllowed(allowed)
    // The statistics are a reading of the whole list: guarded as the list is. So is the catalog.
    const catalog = target.kind === 'item' && target.id === CATALOG_PATH
    const stats = catalog || (target.kind === 'item' && target.id === STATS_PATH)
    if (stats && action !== 'read') return methodNotAllowed('GET, HEAD')
    // Before the owner, `authorize` and the body: a forged write costs nothing and learns nothing.
    const crossSite =
      action === 'list' || action === 'read'
        ? undefined
        : crossSiteRefusal(request, url, options.cors)
    if (crossSite) return crossSite

    const found = logOf(request)
    const reached = found instanceof Promise ? await found : found
    if (!reached) return unauthenticated()
    const { log, owner } = reached
    const asked = stats ? 'list' : action
    const refusal = options.authorize && (await denied(request, options.authorize, asked))
    if (refusal) return refusal
    if (stats) {
      if (!acceptsJson(request.headers.get('accept'))) return notAcceptable(JSON_TYPE)
      return catalog ? catalogReply(options.catalog, url) : statsReply(log, url)
    }
    switch (action) {
      case 'add':
        return add(log, request, url)
      case 'update':
        return updateMovie(log, request, (target as { id: string }).id, maxBodyBytes)
      case 'delete':
        return deleteMovie(log, request, (target as { id: string }).id)
    }
    const listType =
      target.kind === 'collection' ? listTypeOf(request.headers.get('accept')) : undefined
    if (listType === 'events') return streams(owner, () => changeFeed(log, request, url, feed))
    const exported =
      (listType === 'ndjson' || listType === 'csv') &&
      (await streams(owner, () => exportReply(log, request, url)))
    if (exported) return exported
    if (!acceptsJson(request.headers.get('accept'))) {
      return notAcceptable(target.kind === 'collection' ? LIST_TYPES_TEXT : JSON_TYPE)
    }
    return target.kind === 'collection'
      ? listMovies(log, url, maxPageSize, collectionUrl(url), (whole) => streams(owner, whole))
      : readMovie(log, request, target.id)
  }

  return async function replyToMovieLogRequest(request, url, path = url.pathname) {
    let reply: Reply
    try {
      reply = await route(request, url, path)
    } catch (error) {
      reply = errorReply(error)
      if (reply.status >= 500) onError(error, request)
    }
    if (options.cors) addCorsHeaders(reply, options.cors, request.headers.get('origin'))
    const read = request.method === 'GET' || request.method === 'HEAD'
    if (read && (reply.status === 200 || reply.status === 304)) {
      reply.headers['cache-control'] ??= READ_CACHE
    }
    // HEAD: the GET answer, headers and all, without its body.
    if (request.method === 'HEAD' && reply.body !== null) {
      if (typeof reply.body !== 'string') await reply.body.cancel()
      reply.body = null
    }
    return reply
  }
}

/** The contract as a web-standard handler: `(request: Request) => Promise<Response>`. */
export function createMovieLogFetch(
  log: MovieLog | MovieLogs,
  options?: MovieLogHttpOptions,
): (request: Request) => Promise<Response> {
  const reply = createMovieLogReplier(log, options)
  return async (request) => toWebResponse(await reply(request, new URL(request.url)))
}

// What `GET /movies` answers with: the JSON page, or an export (src/http/export.ts).
const LIST_TYPES_TEXT = `${JSON_TYPE}, application/x-ndjson, text/csv or text/event-stream`
