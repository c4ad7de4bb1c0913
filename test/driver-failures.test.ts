// Issue 37: a driver classifies its own failures, and only what it recognises is a 503; a bug
// anywhere (a driver's, a store adapter's) is a 500 that is logged. One way to tell a missing
// optional package; one error per cause; and what a 503 said kept across the client.
import Keyv, { type KeyvStoreAdapter } from 'keyv'
import {
  createMovieLog,
  FeedUnavailableError,
  LogClosedError,
  MovieLogError,
  NamespaceConflictError,
  registerStoreOpener,
  type StoreFailureReason,
  StoreUnavailableError,
  UnsupportedStoreError,
} from 'movie-log'
import { createMovieLogClient } from 'movie-log/client'
import { type Problem, toWebHandler } from 'movie-log/web'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { STORE_FAILURE_REASONS, STORE_FAILURE_WORDS } from '../src/core/errors'
import { openRedisCluster } from '../src/drivers/redis/cluster'
import { importPeer, missingPackageOf } from '../src/drivers/shared/peer'
import { createOpenApiDocument } from '../src/http/openapi/document'
import { aMovie } from './_movies'

afterEach(() => {
  vi.restoreAllMocks()
})

/** A bug's error that is none of JavaScript's own: a class of the store client's, say. */
class ClientBug extends Error {
  override name = 'ClientBug'
}

const post = () =>
  new Request('http://movie-log.test/movies', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(aMovie()),
  })
const list = () => new Request('http://movie-log.test/movies')

/** A Map whose reads and writes throw `error`: a caller's Map with a bug in it. */
class ThrowingMap extends Map {
  constructor(private readonly error: () => Error) {
    super()
  }
  override get(): never {
    throw this.error()
  }
  override set(): never {
    throw this.error()
  }
  override keys(): never {
    throw this.error()
  }
  override entries(): never {
    throw this.error()
  }
  override [Symbol.iterator](): never {
    throw this.error()
  }
}

/** A keyv adapter (the scan driver's) whose every call throws `error`. */
function throwingAdapter(error: () => Error): Keyv {
  const fail = async () => {
    throw error()
  }
  const keyv = new Keyv({
    store: {
      get: fail,
      set: fail,
      delete: fail,
      clear: fail,
      has: fail,
    } as unknown as KeyvStoreAdapter,
  })
  keyv.iterator = async function* () {
    yield await fail()
  }
  return keyv
}

describe('an error no driver recognises (issue 37: it was a silent 503)', () => {
  it.each([
    ['a Map (memory driver)', () => createMovieLog(new ThrowingMap(() => new ClientBug('oops')))],
    [
      'a keyv adapter (scan driver)',
      () => createMovieLog(throwingAdapter(() => new ClientBug('oops'))),
    ],
  ])('from %s is a 500, logged by the default onError, with nothing internal', async (_, log) => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
    const handle = toWebHandler(log())
    for (const request of [post(), list()]) {
      const response = await handle(request)
      expect(response.status).toBe(500)
      const problem = (await response.json()) as Problem
      expect(JSON.stringify(problem)).not.toMatch(/oops|ClientBug/)
    }
    expect(logged).toHaveBeenCalledTimes(2)
    expect(logged.mock.calls[0]?.[1]).toBeInstanceOf(ClientBug)
  })

  it('from opening a store by URL is a 500, not a retryable 503', async () => {
    registerStoreOpener({
      schemes: ['test-opener-bug'],
      remote: true,
      open: async () => {
        throw new ClientBug('the opener broke')
      },
    })
    const errors: unknown[] = []
    const handle = toWebHandler(createMovieLog('test-opener-bug://'), {
      onError: (error) => errors.push(error),
    })
    expect((await handle(list())).status).toBe(500)
    expect(errors).toEqual([expect.any(ClientBug)])
  })

  it('while a socket error from the same store is still a 503 that says why', async () => {
    const down = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })
    const errors: unknown[] = []
    const handle = toWebHandler(createMovieLog(new ThrowingMap(down)), {
      onError: (error) => errors.push(error),
    })
    expect((await handle(list())).status).toBe(503)
    expect(errors[0]).toMatchObject({ reason: 'unreachable', storeCode: 'ECONNRESET' })
  })
})

describe('a missing optional package (one helper, drivers/peer.ts)', () => {
  const notFound = (name: string) =>
    Object.assign(new Error(`Cannot find package '${name}' imported from /app/x.js`), {
      code: 'ERR_MODULE_NOT_FOUND',
    })

  it('is named from the import’s error, and nothing else is taken for it', () => {
    expect(missingPackageOf(notFound('@keyv/redis'))).toBe('@keyv/redis')
    expect(missingPackageOf(notFound('pg/lib/x.js'))).toBe('pg')
    expect(missingPackageOf(new Error("Cannot find package 'pg'"))).toBeUndefined()
    expect(missingPackageOf(new TypeError('x is not a function'))).toBeUndefined()
  })

  it('is a clear, non-retryable UnsupportedStoreError naming what to install', async () => {
    const error = await importPeer('@keyv/redis', 'redis://', () =>
      Promise.reject(notFound('@keyv/redis')),
    ).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(UnsupportedStoreError)
    expect(error).toMatchObject({
      missingPackage: '@keyv/redis',
      message: expect.stringContaining('npm install @keyv/redis'),
    })
    expect(StoreUnavailableError.is(error)).toBe(false)
  })

  it('is what redis+cluster:// says without @keyv/redis (it had no check: a retryable 503)', async () => {
    const opening = openRedisCluster('redis+cluster://127.0.0.1:1', 50, () =>
      Promise.reject(notFound('@keyv/redis')),
    )
    const error = await opening.catch((caught: unknown) => caught)
    // Opened anyway (the import was not the one given): closed, and the test fails below.
    if (!(error instanceof Error))
      await (error as { connection: { close(): Promise<void> } }).connection.close()
    expect(error).toBeInstanceOf(UnsupportedStoreError)
    expect(error).toMatchObject({
      missingPackage: '@keyv/redis',
      message:
        'A redis+cluster:// store needs the @keyv/redis package: install it beside movie-log (npm install @keyv/redis)',
    })
  })
})

describe('one error per cause, each with its code and status', () => {
  it('a closed log: LogClosedError, LOG_CLOSED, 500', async () => {
    const log = createMovieLog('memory://')
    await log.close()
    const error = await log.listMovies().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(LogClosedError)
    expect(error).toMatchObject({ code: 'LOG_CLOSED', name: 'LogClosedError' })
    expect(UnsupportedStoreError.is(error)).toBe(false)
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const response = await toWebHandler(log)(list())
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ type: 'urn:movie-log:problem:log-closed' })
  })

  it('namespaces that disagree: NamespaceConflictError, NAMESPACE_CONFLICT', () => {
    const make = () => createMovieLog(new Keyv({ namespace: 'a' }), { namespace: 'b' })
    expect(make).toThrow(NamespaceConflictError)
    expect(make).not.toThrow(UnsupportedStoreError)
    try {
      make()
    } catch (error) {
      expect(error).toMatchObject({ code: 'NAMESPACE_CONFLICT', name: 'NamespaceConflictError' })
    }
  })

  it('a server with no change feed: FeedUnavailableError, FEED_UNAVAILABLE', async () => {
    const fetch = async () =>
      new Response('<html></html>', { status: 200, headers: { 'content-type': 'text/html' } })
    const client = createMovieLogClient('http://movie-log.test/movies', { fetch, retries: 0 })
    const error = await (async () => {
      for await (const _ of client.watch()) return undefined
    })().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(FeedUnavailableError)
    expect(error).toMatchObject({ code: 'FEED_UNAVAILABLE' })
  })

  it.each([
    ['LogClosedError', LogClosedError, 'log-closed', 500],
    ['NamespaceConflictError', NamespaceConflictError, 'namespace-conflict', 500],
    ['FeedUnavailableError', FeedUnavailableError, 'feed-unavailable', 501],
  ] as const)(
    '%s is told by its name too, and has its own problem type',
    async (name, Class, slug, status) => {
      // An error from another copy of the package: instanceof fails, the name does not.
      const foreign = Object.assign(new Error('x'), { name, code: 'X' })
      expect(Class.is(foreign)).toBe(true)
      expect(MovieLogError.is(foreign)).toBe(true)
      expect(UnsupportedStoreError.is(foreign)).toBe(false)
      // Raised under a handler, it answers its own status and type; the client rebuilds it.
      const log = createMovieLog()
      vi.spyOn(log, 'listMovies').mockRejectedValue(new Class('x'))
      vi.spyOn(console, 'error').mockImplementation(() => {})
      const handle = toWebHandler(log)
      const response = await handle(list())
      expect(response.status).toBe(status)
      expect(await response.clone().json()).toMatchObject({ type: `urn:movie-log:problem:${slug}` })
      const client = createMovieLogClient('http://movie-log.test/movies', {
        fetch: async () => response,
        retries: 0,
      })
      await expect(client.listMovies()).rejects.toBeInstanceOf(Class)
    },
  )
})

describe('a 503 across the client', () => {
  it('keeps its reason (it was rebuilt as "unknown")', async () => {
    const full = () => Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' })
    const handle = toWebHandler(createMovieLog(new ThrowingMap(full)))
    const client = createMovieLogClient('http://movie-log.test/movies', {
      fetch: async (input, init) => handle(new Request(input, init)),
      retries: 0,
    })
    const error = await client.listMovies().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(StoreUnavailableError)
    expect(error).toMatchObject({ reason: 'disk-full', storeCode: undefined })
  })

  it('says the server could not be reached when it could not', async () => {
    const client = createMovieLogClient('http://movie-log.test/movies', {
      fetch: async () => {
        throw new TypeError('fetch failed')
      },
      retries: 0,
    })
    await expect(client.listMovies()).rejects.toMatchObject({ reason: 'unreachable' })
  })
})

describe('the store failure reasons, one table (issue 56)', () => {
  const eight: StoreFailureReason[] = [
    'unreachable',
    'timeout',
    'too-many-connections',
    'disk-full',
    'read-only',
    'auth-failed',
    'busy',
    'unknown',
  ]

  it('are listed from the table of words, in its order, and the OpenAPI document says them', () => {
    expect(STORE_FAILURE_REASONS).toEqual(eight)
    const document = createOpenApiDocument('/movies') as {
      components: { schemas: { Problem: { properties: { reason: { enum: string[] } } } } }
    }
    expect(document.components.schemas.Problem.properties.reason.enum).toEqual(eight)
  })

  it.each(eight)('%s: its words in the message, and the client reads it back', async (reason) => {
    const error = new StoreUnavailableError('add', undefined, { reason })
    expect(error.message).toContain(STORE_FAILURE_WORDS[reason])
    expect(MovieLogError.is(error) && error.code).toBe('STORE_UNAVAILABLE')
    const problem = { type: 'urn:movie-log:problem:store-unavailable', status: 503, reason }
    const client = createMovieLogClient('http://movie-log.test/movies', {
      fetch: async () => Response.json(problem, { status: 503 }),
      retries: 0,
    })
    await expect(client.listMovies()).rejects.toMatchObject({ reason })
  })

  it('reads a reason it does not know as "unknown"', async () => {
    const problem = { type: 'urn:movie-log:problem:store-unavailable', status: 503, reason: 'x' }
    const client = createMovieLogClient('http://movie-log.test/movies', {
      fetch: async () => Response.json(problem, { status: 503 }),
      retries: 0,
    })
    await expect(client.listMovies()).rejects.toMatchObject({ reason: 'unknown' })
  })
})
