/**
 * The server `movie-log serve` runs (and `npm start`): h3 v2 + listhen, the log at /movies,
 * the diary page at /, the API reference at /docs. Its settings: ./config.ts.
 */
import { setMaxListeners } from 'node:events'
import type { ServerResponse } from 'node:http'
import { H3, type H3Event } from 'h3'
import { toNodeHandler } from 'h3/node'
import { listen } from 'listhen'
import { redact } from '../core/store-url'
import { h3AppOf } from '../http/h3'
import type { MovieLogHttpOptions } from '../http/options'
import { hostErrorReply, problemReply } from '../http/problem'
import { createMovieLogReplier } from '../http/replier'
import { toWebResponse } from '../http/reply'
import { type MovieLog, type MovieLogs, StoreUnavailableError } from '../index'
import { diaryPage } from '../page/server/files'
import { openCatalogOf } from '../store-files'
import { startWebhookDelivery } from '../webhooks/delivery'
import { bearerTokenAuthorizer, ConfigError, configFromEnv, type ServerConfig } from './config'
import { hostFilter } from './hosts'
import { createRequestLog } from './request-log'
import { addSite } from './site'
import { missingPackage } from './start-errors'
import { openCheckedLog, openCheckedLogs, StoreOpenError } from './store'
import { ownerOfToken } from './users'

export interface RunningServer {
  /** Where the log is served, e.g. `http://127.0.0.1:3000/movies`. */
  url: string
  /** Stops accepting, ends open change feeds, finishes in-flight requests, then closes the store. */
  close(): Promise<void>
}

const MISDIRECTED = problemReply(
  421,
  'This server does not answer for that host name: set MOVIE_LOG_HOSTS to name it.',
)

const BAD_HOST = problemReply(400, 'The Host header is not a host name and port.')

/**
 * The h3 app: the log at /movies, the diary page at / (a pointer to the log for JSON), /docs.
 * With `config.users`, `log` is many logs (`createMovieLogs`): each request reaches the diary
 * of the person whose token it bears. `feeds` ends every open change feed when it aborts.
 */
export function createApp(
  log: MovieLog | MovieLogs,
  config: Partial<ServerConfig> = {},
  onError?: MovieLogHttpOptions['onError'],
  feeds?: AbortSignal,
): H3 {
  const options: MovieLogHttpOptions = {
    cors: config.corsOrigins,
    onError,
    signal: feeds,
    maxStreams: config.maxStreams,
    timeZone: config.timeZone,
    catalog: config.catalog,
    webhooks: { allowPrivateNetworks: config.webhookPrivate ?? false },
  }
  if (config.users) options.owner = ownerOfToken(config.users)
  if (config.token) options.authorize = bearerTokenAuthorizer(config.token, config.private ?? false)
  // What h3 answers itself (a malformed URL, no route) is problem details too, without its
  // message: that quotes the URL built from the Host header.
  const app = new H3({ silent: true, onError: (error) => toWebResponse(hostErrorReply(error)) })
  // Every route, the page and /docs too: a page reached by DNS rebinding reads them all. The
  // URL's host is the Host header's (a request without one: the address it reached).
  const hostAllowed = hostFilter(config.host ?? '127.0.0.1', config.hosts)
  app.use((event) => {
    let host: string
    try {
      host = event.url.host
    } catch {
      // A Host no URL can be made of (a port past 65535, a bad xn-- label): the client's error.
      return toWebResponse(BAD_HOST)
    }
    return hostAllowed && !hostAllowed(host) ? toWebResponse(MISDIRECTED) : undefined
  })
  // One replier for /movies and the share links' /s/…: its limits hold across both.
  const reply = createMovieLogReplier(log, options)
  const shared = async (event: H3Event) =>
    toWebResponse(await reply(event.req, event.url, event.url.pathname))
  // People get the diary page at / and the API reference at /docs; programs, the pointer.
  addSite(
    app,
    () => diaryPage(),
    { name: 'movie-log', movies: '/movies' },
    { logs: log, reply: shared },
  )
  app.all('/', () =>
    toWebResponse(problemReply(405, 'This resource answers GET, HEAD.', { allow: 'GET, HEAD' })),
  )
  return app.mount('/movies', h3AppOf(reply))
}

/** Opens the store, checks that it answers, and listens. Rejects with a one-line reason. */
export async function startServer(
  config: ServerConfig,
  log: (line: string) => void = console.log,
): Promise<RunningServer> {
  const opening = config.users ? openCheckedLogs(config.storeUrl) : openCheckedLog(config.storeUrl)
  const store = await opening.catch((error: unknown) => {
    throw error instanceof StoreOpenError ? new ConfigError(error.message) : error
  })
  // Found, or built from source, before the first request: a page that fails stops the start.
  await diaryPage().catch(async (error: unknown) => {
    await store.close().catch(() => {})
    throw new ConfigError(`cannot build the diary page (${reason(error)})`)
  })

  // Read from its file on each question: loaded after the start, it is used without a restart.
  const catalog = await openCatalogOf(config.storeUrl)
  const requestLog = createRequestLog(log)
  // A 5xx's line says why: for a 503, what the store said and its own code.
  const onError = (error: unknown, request: Request) => {
    const response = (request as { runtime?: { node?: { res?: ServerResponse } } }).runtime?.node
      ?.res
    if (!StoreUnavailableError.is(error)) console.error('[movie-log]', error)
    const why = StoreUnavailableError.is(error)
      ? `${error.message} [${error.storeCode ?? 'no code'}]`
      : `(${error instanceof Error ? error.name : 'error'}: see above)`
    if (response) requestLog.explain(response, why)
  }
  // Open change feeds never end by themselves: closing ends them, so the server can stop.
  const feeds = new AbortController()
  // Every open feed listens on it: 1,000 feeds are not a leak (Node warns past 10).
  setMaxListeners(0, feeds.signal)
  const handle = requestLog.timed(
    toNodeHandler(createApp(store, { ...config, catalog }, onError, feeds.signal)),
  )
  // isProd: fail on a busy port instead of moving to another one; autoClose: signals are ours.
  const listener = await listen(handle, {
    port: config.port,
    hostname: config.host,
    showURL: false,
    isProd: true,
    autoClose: false,
    qr: false,
    public: false,
  }).catch(async (error: unknown) => {
    await store.close().catch(() => {})
    throw new ConfigError(`cannot listen on ${config.host}:${config.port} (${reason(error)})`)
  })

  const stopLogging = requestLog.follow(listener.server)
  // Each change told to the endpoints its owner registered, off the requests (src/webhooks/).
  const webhooks = startWebhookDelivery(store, {
    allowPrivateNetworks: config.webhookPrivate ?? false,
  })
  const url = new URL('/movies', listener.url).href
  const people = config.users ? `, a household of ${config.users.length}` : ''
  // Said when on, so that a server started as private can be seen to be.
  const reads = config.private ? ', reads private' : ''
  // The API's URL first (what scripts read), then the page's, for the person who started it.
  const page = new URL('/', listener.url).href
  log(
    `movie-log listening on ${url} (store: ${redact(config.storeUrl)}${people}${reads}; ${zoneOf(config)}), the diary at ${page}`,
  )
  return {
    url,
    close: async () => {
      feeds.abort()
      await Promise.all([listener.close(), webhooks.stop()])
      stopLogging()
      await Promise.all([store.close(), catalog?.close()])
    },
  }
}

/**
 * A line writer that gathers the lines of one turn of the event loop into a single write: a
 * write per request would cost the server more than the request itself.
 */
function batchedLines(stream: NodeJS.WritableStream): {
  write: (line: string) => void
  flush: () => void
} {
  let pending = ''
  const flush = () => {
    if (pending === '') return
    const text = pending
    pending = ''
    stream.write(text)
  }
  return {
    write: (line) => {
      if (pending === '') setImmediate(flush)
      pending += `${line}\n`
    },
    flush,
  }
}

function reason(error: unknown): string {
  const cause =
    error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ''
  const message = error instanceof Error ? error.message : String(error)
  return (message || (error as Error)?.name || 'unknown error') + cause
}

/** The one line `movie-log serve` prints, and exits 1 after, when it cannot start. */
export function startFailureLine(error: unknown): string {
  const missing = missingPackage(error)
  const message =
    error instanceof ConfigError
      ? error.message
      : missing
        ? `the package '${missing}' is not installed: npm install ${missing}`
        : reason(error)
  return `movie-log: cannot start: ${message.replace(/\s+/g, ' ')}`
}

/**
 * Runs the server in this process until SIGTERM or SIGINT, then shuts it down cleanly: what
 * `movie-log serve` and `npm start` run. A bad setting prints one line and exits 1.
 */
export async function main(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const lines = batchedLines(process.stdout)
  let server: RunningServer
  try {
    server = await startServer(configFromEnv(env), lines.write)
  } catch (error) {
    console.error(startFailureLine(error))
    process.exit(1)
  }
  let stopping = false
  const stop = async (signal: string) => {
    // A second signal (a terminal's Ctrl-C reaches npm and the server both) must not cut the
    // shutdown short before the store is closed.
    if (stopping) return
    stopping = true
    lines.write(`movie-log: ${signal}, finishing in-flight requests`)
    // A request that never ends must not keep the process from stopping.
    setTimeout(() => process.exit(1), 10_000).unref()
    await server.close()
    lines.flush()
    process.exit(0)
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

// The zone scrobbles are written in, said at the start: node images and Workers run in UTC, so
// the process's own zone is named as such, with how to set another.
function zoneOf(config: ServerConfig): string {
  if (config.timeZone) return `scrobbles in ${config.timeZone}`
  const own = new Intl.DateTimeFormat().resolvedOptions().timeZone
  return `scrobbles in ${own}, the process's zone: set MOVIE_LOG_TIME_ZONE or TZ to change it`
}
