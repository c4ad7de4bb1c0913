/**
 * The example server: h3 v2 + listhen, the log mounted at /movies. `npm start` runs it.
 *
 *   PORT             port to listen on                      default 3000
 *   HOST             address to bind                        default 127.0.0.1
 *   MOVIE_LOG_STORE  memory:// | sqlite://PATH | redis://… | rediss://… | postgres://…
 *                                                           default sqlite://./data/movies.sqlite
 *   MOVIE_LOG_TOKEN  writes need `Authorization: Bearer <token>`       default: open
 *   MOVIE_LOG_PRIVATE=1           reading needs the token too
 *   MOVIE_LOG_CORS_ORIGINS        comma-separated origins, or *     default: no CORS
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import { pathToFileURL } from 'node:url'
import { H3 } from 'h3'
import { toNodeHandler } from 'h3/node'
import type Keyv from 'keyv'
import { listen } from 'listhen'
import { createMovieLog, type MovieLogOptions, StoreUnavailableError } from 'movie-log'
import { type MovieLogAction, type MovieLogHttpOptions, toH3Handler } from 'movie-log/h3'
import { createRequestLog } from './request-log'
import { addSite, findPageDir } from './site'
import { explainStoreFailure } from './start-errors'
import { checkStore, openStore, redact } from './store'

export interface ServerConfig {
  port: number
  host: string
  storeUrl: string
  /** When set, adding, changing and deleting need `Authorization: Bearer <token>`. */
  token?: string
  /** With a token: reading needs it too. */
  private: boolean
  /** Browser origins allowed to call the log (CORS). */
  corsOrigins?: '*' | string[]
}

export interface RunningServer {
  /** Where the log is served, e.g. `http://127.0.0.1:3000/movies`. */
  url: string
  /** Stops accepting, finishes in-flight requests, then closes the store. */
  close(): Promise<void>
}

/** A configuration the server cannot start with. Its message is the one line it prints. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Reads the server's settings from environment variables, with the contract's defaults. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ConfigError(`PORT must be a port number from 1 to 65535, not '${env.PORT}'`)
  }
  if (env.MOVIE_LOG_PRIVATE === '1' && !env.MOVIE_LOG_TOKEN) {
    throw new ConfigError(
      'MOVIE_LOG_PRIVATE=1 needs MOVIE_LOG_TOKEN: without a token no one could read',
    )
  }
  const origins = env.MOVIE_LOG_CORS_ORIGINS?.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean)
  return {
    port,
    host: env.HOST || '127.0.0.1',
    storeUrl: env.MOVIE_LOG_STORE || 'sqlite://./data/movies.sqlite',
    token: env.MOVIE_LOG_TOKEN || undefined,
    private: env.MOVIE_LOG_PRIVATE === '1',
    corsOrigins: origins?.includes('*') ? '*' : origins?.length ? origins : undefined,
  }
}

/** `authorize` for the example: a bearer token for every write, and for reads when private. */
export function bearerTokenAuthorizer(
  token: string,
  readsNeedToken: boolean,
): (request: Request, action: MovieLogAction) => boolean {
  // Digests of equal length, compared in constant time: the comparison leaks nothing of the token.
  const expected = createHash('sha256').update(token).digest()
  return (request, action) => {
    const isRead = action === 'list' || action === 'read'
    if (isRead && !readsNeedToken) return true
    const sent = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''
    return timingSafeEqual(createHash('sha256').update(sent).digest(), expected)
  }
}

/** The h3 app: the log at /movies, the diary page at / (a pointer to the log for JSON), /docs. */
export function createApp(
  store: Keyv,
  config: Partial<ServerConfig> = {},
  onError?: MovieLogHttpOptions['onError'],
  logOptions?: MovieLogOptions,
): H3 {
  const options: MovieLogHttpOptions = { cors: config.corsOrigins, onError }
  if (config.token) options.authorize = bearerTokenAuthorizer(config.token, config.private ?? false)
  const app = new H3({ silent: true })
  // People get the diary page at / and the API reference at /docs; programs, the pointer.
  addSite(app, findPageDir(), { name: 'movie-log', movies: '/movies' })
  return app.mount('/movies', toH3Handler(createMovieLog(store, logOptions), options))
}

/** Opens the store, checks that it answers, and listens. Rejects with a one-line reason. */
export async function startServer(
  config: ServerConfig,
  log: (line: string) => void = console.log,
): Promise<RunningServer> {
  const store = await openStore(config.storeUrl)
  try {
    await checkStore(store)
  } catch (error) {
    await store.disconnect().catch(() => {})
    throw new ConfigError(explainStoreFailure(config.storeUrl, error))
  }

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
  const handle = requestLog.timed(toNodeHandler(createApp(store, config, onError)))
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
    await store.disconnect().catch(() => {})
    throw new ConfigError(`cannot listen on ${config.host}:${config.port} (${reason(error)})`)
  })

  const stopLogging = requestLog.follow(listener.server)
  const url = new URL('/movies', listener.url).href
  log(`movie-log listening on ${url} (store: ${redact(config.storeUrl)})`)
  return {
    url,
    close: async () => {
      await listener.close()
      stopLogging()
      await store.disconnect()
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
    const message = error instanceof ConfigError ? error.message : reason(error)
    console.error(`movie-log: cannot start: ${message.replace(/\s+/g, ' ')}`)
    process.exit(1)
  }
  const stop = async (signal: string) => {
    lines.write(`movie-log: ${signal}, finishing in-flight requests`)
    // A request that never ends must not keep the process from stopping.
    setTimeout(() => process.exit(1), 10_000).unref()
    await server.close()
    lines.flush()
    process.exit(0)
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
