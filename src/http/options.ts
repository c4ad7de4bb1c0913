import type { Catalog } from '../core/catalog'
import type { WebhooksOptions } from '../webhooks/webhooks'
import type { CorsOrigins } from './cors'

/**
 * Options of the HTTP handlers (`toWebHandler`, `toH3Handler`).
 *
 * @example
 * ```ts
 * toWebHandler(log, { basePath: '/api/movies', maxBodyBytes: 64 * 1024, maxPageSize: 200 })
 * ```
 */
export interface MovieLogHttpOptions {
  /**
   * The public path the log is mounted at, used to recognise requests and to write `Location`
   * and `Link` URLs. Requests may arrive with it (a host that keeps the prefix) or without it
   * (a host that strips it, like h3's `app.mount`). Default `'/movies'`.
   */
  basePath?: string
  /** Largest accepted POST body, in bytes. Default 1 MiB. */
  maxBodyBytes?: number
  /**
   * Largest file `POST {base}/import` takes, in bytes: a file is held whole while it is read,
   * so that a file refused stores nothing. Default 32 MiB, far above a Letterboxd, Netflix or
   * IMDb export; a Trakt history with years of episodes may want more.
   */
  maxImportBytes?: number
  /** Largest page `?limit=` can ask for; larger limits are lowered to it. Default 1000. */
  maxPageSize?: number
  /**
   * Called with every error that became a 500 (a bug), and with every `StoreUnavailableError`
   * that became a 503 (its `reason` and `storeCode` say why), for logging. Default:
   * `console.error` for 500s, and a one-line `console.warn` for 503s (the store's failure and
   * its code).
   */
  onError?: (error: unknown, request: Request) => void
  /**
   * Decides who may do what. `true` lets the request through; `false` or `401` answers 401 with
   * `WWW-Authenticate: Bearer`; `403` answers 403. Default: everyone may do everything.
   */
  authorize?: (
    request: Request,
    action: MovieLogAction,
  ) => AuthorizeResult | Promise<AuthorizeResult>
  /** Browser origins allowed to call the log (CORS): a list, or `'*'`. Default: none. */
  cors?: CorsOrigins
  /**
   * Adds and scrobbles handled at once, each counted while its body is read; past it, they
   * answer 503 with `Retry-After`. Default 256.
   */
  maxConcurrentAdds?: number
  /**
   * With many logs (`createMovieLogs`): whose diary a request reaches, from the host's own
   * authentication (a session, a JWT, a header a proxy sets). `undefined` answers 401. Needed
   * with many logs, refused with one.
   */
  owner?: (request: Request) => string | undefined | Promise<string | undefined>
  /**
   * How often an open change feed (`GET /movies` with `Accept: text/event-stream`) sends a
   * `: keep-alive` comment, in ms. Default 15000.
   */
  keepAliveMs?: number
  /**
   * How many bytes a change feed may hold for a client that stopped reading; past them its
   * stream is cut off (an EventSource reconnects, and resumes from its last id). Keep it above
   * the largest event, about 100 KB. Default 256 KiB.
   */
  maxFeedBufferBytes?: number
  /**
   * Streams open at once, exports (NDJSON, CSV), change feeds and full JSON lists of more than
   * a page (streamed) together; with many owners, one owner holds at most half of them (rounded
   * up). Past it, they answer 503 with `Retry-After`. A stream counts until it ends or its
   * client goes away. Default 256.
   */
  maxStreams?: number
  /**
   * Ends every open change feed when it aborts, each stream closed cleanly: a server shutting
   * down aborts it, so that its connections can close.
   */
  signal?: AbortSignal
  /**
   * The IANA time zone a scrobble's watch is written in (`screenedDate` is local time), as
   * `'Europe/Paris'`. Default: the runtime's own zone.
   */
  timeZone?: string
  /**
   * The IMDb catalog (`openCatalog` from `movie-log/sqlite`): `GET {base}/catalog?q=&year=`
   * answers from it, and a scrobble without an IMDb id is matched through it. Default: none
   * (the route answers a 404 problem naming `movie-log catalog load`).
   */
  catalog?: Catalog
  /**
   * Outgoing webhooks (`{base}/webhooks`): `allowPrivateNetworks` lets an owner register an
   * endpoint on a loopback, private or link-local address (a household's Home Assistant).
   * Deliveries are sent by `startWebhookDelivery`, which takes the same setting.
   */
  webhooks?: WebhooksOptions
}

/**
 * What a request wants to do: list the log, read one movie, add, update or delete one, or see
 * and change the owner's outgoing webhook endpoints (`webhooks`: a write, whichever method,
 * since an endpoint is told every change).
 *
 * @example
 * ```ts
 * const authorize = (request: Request, action: MovieLogAction) =>
 *   action === 'list' || action === 'read' || isAdmin(request)
 * ```
 */
export type MovieLogAction = 'list' | 'read' | 'add' | 'update' | 'delete' | 'webhooks'

/**
 * The answer of `authorize`: allowed (`true`), unauthenticated (`false`, `401`) or forbidden (`403`).
 *
 * @example
 * ```ts
 * const authorize = (request: Request): AuthorizeResult =>
 *   !request.headers.has('authorization') ? 401 : isAdmin(request) ? true : 403
 * ```
 */
export type AuthorizeResult = boolean | 401 | 403

const POSITIVE_INTEGER_OPTIONS = [
  'maxBodyBytes',
  'maxImportBytes',
  'maxPageSize',
  'maxConcurrentAdds',
  'keepAliveMs',
  'maxFeedBufferBytes',
  'maxStreams',
] as const

/**
 * Refuses options the handlers could only misread, when the handler is made rather than on
 * the first request: a `basePath` with a query or fragment (it could never match a path), and
 * limits that are not positive integers (0 would refuse every body, NaN every page).
 */
export function checkHttpOptions(options: MovieLogHttpOptions): void {
  const { basePath } = options
  if (basePath !== undefined && (typeof basePath !== 'string' || /[?#]/.test(basePath))) {
    throw new TypeError(
      `movie-log: options.basePath must be a path, without '?' or '#', not ${JSON.stringify(basePath)}`,
    )
  }
  const { timeZone } = options
  if (timeZone !== undefined && !isTimeZone(timeZone)) {
    throw new TypeError(
      `movie-log: options.timeZone: '${String(timeZone)}' is not a time zone this runtime knows: give an IANA name such as Europe/Paris`,
    )
  }
  for (const name of POSITIVE_INTEGER_OPTIONS) {
    const value = options[name]
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw new TypeError(
        `movie-log: options.${name} must be a positive integer, not ${String(value)}`,
      )
    }
  }
}

// The runtime's own list: Intl refuses a zone it does not know with a RangeError.
function isTimeZone(timeZone: unknown): boolean {
  if (typeof timeZone !== 'string') return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone })
    return true
  } catch {
    return false
  }
}
