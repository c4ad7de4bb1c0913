// Issue 26: a bug is a 500, logged. A failure of ours while reading a body was answered as the
// client's 400 and told to nobody; only a client that went away is the client's fault.
import { Readable } from 'node:stream'
import { createMovieLog, registerStoreOpener, StoreUnavailableError } from 'movie-log'
import { type MovieLogHttpOptions, toWebHandler } from 'movie-log/web'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { driverForKeyv, toKeyv } from '../src/drivers'
import { FlakyMap } from './_flaky-map'
import { expectProblem } from './_http-helpers'
import { aMovie } from './_movies'

afterEach(() => {
  vi.restoreAllMocks()
})

const bug = new TypeError('secret-internal-detail: cannot read properties of undefined')

/** A POST whose body stream fails with `error` once it is read. */
function postFailingWith(error: unknown, init: { signal?: AbortSignal } = {}): Request {
  return new Request('http://movie-log.test/movies', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: new ReadableStream({
      pull(controller) {
        controller.error(error)
      },
    }),
    duplex: 'half',
    ...init,
  } as RequestInit)
}

/**
 * The same POST as srvx hands it over on Node, from a server that lets the log read bodies from
 * Node (as movie-log's does): the body read from Node's request, which fails.
 */
function nodePostFailingWith(error: unknown): Request {
  const request = new Request('http://movie-log.test/movies', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
  })
  const req = new Readable({
    read() {
      this.destroy(error as Error)
    },
  })
  return Object.assign(request, { runtime: { node: { req } } })
}

function handlerSeeingErrors(options: MovieLogHttpOptions = {}) {
  const log = createMovieLog()
  const errors: unknown[] = []
  const handle = toWebHandler(log, { onError: (error) => errors.push(error), ...options })
  return { log, errors, handle }
}

describe('a bug while reading a body', () => {
  it.each([
    ['the web stream', postFailingWith],
    ['the Node request', nodePostFailingWith],
  ])(
    'is a 500 through %s, given to onError, with nothing internal in the answer',
    async (_, post) => {
      const { log, errors, handle } = handlerSeeingErrors()
      const problem = await expectProblem(await handle(post(bug)), 500)
      expect(JSON.stringify(problem)).not.toContain('secret')
      expect(errors).toEqual([bug])
      expect((await log.listMovies()).movies).toEqual([])
    },
  )

  it('is logged by the default onError, with the error itself', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const response = await toWebHandler(createMovieLog())(postFailingWith(bug))
    expect(response.status).toBe(500)
    expect(logged).toHaveBeenCalledTimes(1)
    expect(logged.mock.calls[0]).toContain(bug)
  })
})

// Issue 37 (review): any plain Error while reading was the client's 400. Only a read the client
// broke off is; an error of the host's or ours is not, whatever its class.
it.each([
  ['the web stream', postFailingWith],
  ['the Node request', nodePostFailingWith],
])(
  "does not answer a plain Error while reading through %s as the client's 400",
  async (_, post) => {
    const { errors, handle } = handlerSeeingErrors()
    const failure = new Error('secret-internal-detail: the disk cache is gone')
    const response = await handle(post(failure))
    expect(response.status).not.toBe(400)
    expect(JSON.stringify(await expectProblem(response, response.status))).not.toContain('secret')
    expect(errors).toEqual([failure])
  },
)

describe('a client that goes away while sending its body', () => {
  it.each([
    [
      'aborts its request',
      () => postFailingWith(new Error('gone'), { signal: AbortSignal.abort() }),
    ],
    ['breaks the stream off', () => postFailingWith(new DOMException('aborted', 'AbortError'))],
    [
      'resets the connection',
      () => nodePostFailingWith(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })),
    ],
  ])('gets 400 when it %s, and nothing is logged', async (_, post) => {
    const { errors, handle } = handlerSeeingErrors()
    const response = await handle(post())
    expect(response.status).toBe(400)
    expect(((await response.json()) as { detail: string }).detail).toMatch(/read to its end/)
    expect(errors).toEqual([])
  })
})

// Issue 55: an app whose database was down logged nothing by default.
it('logs a 503 by default as one warning line saying why, not as a bug', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  const warned = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const down = new FlakyMap()
  const response = await toWebHandler(createMovieLog(down))(
    new Request('http://movie-log.test/movies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(aMovie()),
    }),
  )
  expect(response.status).toBe(503)
  expect(logged).not.toHaveBeenCalled()
  expect(warned.mock.calls).toEqual([
    ['[movie-log] The movie store is unavailable (set: cannot be reached) [ECONNRESET]'],
  ])
})

describe('a bug inside a driver', () => {
  // A driver plugged in by URL whose reads fail as `fail` says: a bug, or its store failing.
  // It keeps the memory driver's own failure classifier, the shipped one under test here: a stub
  // that brought its own would pass whatever the shipped one says.
  const failingStore = (scheme: string, failure: () => Error) => {
    registerStoreOpener({
      schemes: [scheme],
      remote: false,
      open: async () => {
        const memory = driverForKeyv(toKeyv(new Map(), 'movie-log'))
        return {
          ...memory,
          log: (owner) => ({
            ...memory.log(owner),
            get: async () => {
              throw failure()
            },
          }),
        }
      },
    })
    return createMovieLog(`${scheme}://`)
  }

  it.each([
    ['TypeError', bug],
    ['RangeError', new RangeError('secret-internal-detail: invalid array length')],
  ])('(a %s) is a 500 given to onError, not a 503', async (name, thrown) => {
    const errors: unknown[] = []
    const handle = toWebHandler(
      failingStore(`test-buggy-${name.toLowerCase()}`, () => thrown),
      {
        onError: (error) => errors.push(error),
      },
    )
    const response = await handle(new Request('http://movie-log.test/movies/some-id'))
    expect(response.status).toBe(500)
    expect(await response.text()).not.toContain('secret-internal-detail')
    expect(errors).toEqual([thrown])
  })

  it('while the store failing is still a 503', async () => {
    const errors: unknown[] = []
    // As Node's socket says its store went away: what the shipped classifier knows.
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
    })
    const handle = toWebHandler(
      failingStore('test-down', () => down),
      {
        onError: (error) => errors.push(error),
      },
    )
    const response = await handle(new Request('http://movie-log.test/movies/some-id'))
    expect(response.status).toBe(503)
    expect(errors).toHaveLength(1)
    expect(StoreUnavailableError.is(errors[0])).toBe(true)
    expect((errors[0] as Error).cause).toBe(down)
  })
})
