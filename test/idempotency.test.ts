import { createMovieLog, IdempotencyError, type Movie, StoreUnavailableError } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { addOnce, EndedAttempts } from '../src/core/idempotency'
import { aMovie, untyped } from './_movies'

/** A Map whose movie writes fail while `failMovies` is set: the first attempt dies mid-add. */
class MovieWritesFail extends Map {
  failMovies = false
  override set(key: unknown, value: unknown) {
    // As a store that went away fails (a plain Error would be a bug, a 500: issue 37).
    if (this.failMovies && String(key).includes(':movie:'))
      throw Object.assign(new Error('crashed mid-add'), { code: 'ECONNRESET' })
    return super.set(key, value)
  }
}

describe('idempotency keys', () => {
  it('lets a retry finish at once a first attempt that ended in this process (issue 26)', async () => {
    const store = new MovieWritesFail()
    const log = createMovieLog(store)
    const input = aMovie({ title: 'Interrupted' })

    store.failMovies = true
    const ended = await log.addMovie(input, { idempotencyKey: 'k-1' }).catch((e: unknown) => e)
    expect(ended).toBeInstanceOf(StoreUnavailableError)
    store.failMovies = false

    // No clock moved: the store is back, so the retry is answered now, not after a lock.
    const finished = await log.addMovie(input, { idempotencyKey: 'k-1' })
    const again = await log.addMovie(input, { idempotencyKey: 'k-1' })
    expect(again).toEqual(finished)
    expect((await log.listMovies()).movies).toEqual([finished])
    const reused = await log
      .addMovie(aMovie({ title: 'Another' }), { idempotencyKey: 'k-1' })
      .catch((e: unknown) => e)
    expect((reused as IdempotencyError).code).toBe('IDEMPOTENCY_KEY_REUSED')
  })

  it('treats the same JSON in another key order as the same request', async () => {
    const log = createMovieLog()
    const first = await log.addMovie(aMovie(), { idempotencyKey: 'k' })
    const reordered = Object.fromEntries(Object.entries(aMovie()).reverse())
    expect(await log.addMovie(untyped(reordered), { idempotencyKey: 'k' })).toEqual(first)
  })

  it.each([[''], ['has space'], ['é'], ['x'.repeat(256)]])('refuses the key %j', async (key) => {
    const log = createMovieLog()
    const error = await log.addMovie(aMovie(), { idempotencyKey: key }).catch((e: unknown) => e)
    expect((error as IdempotencyError).code).toBe('IDEMPOTENCY_KEY_INVALID')
    expect((await log.listMovies()).movies).toEqual([])
  })

  it('claims nothing for an invalid movie', async () => {
    const log = createMovieLog()
    await expect(log.addMovie(untyped({ title: '' }), { idempotencyKey: 'k' })).rejects.toThrow()
    expect(await log.addMovie(aMovie(), { idempotencyKey: 'k' })).toMatchObject({ title: 'Heat' })
  })
})

/**
 * The claims of one store, shared by the "processes" of a test: each process is its own
 * `EndedAttempts`. `failing` makes every call of those kinds throw, as a store that is down;
 * `hold` keeps every movie write waiting until it is released, as a first attempt still running.
 */
function sharedClaims() {
  const records = new Map<string, string>()
  const movies = new Map<string, Movie>()
  const failing = new Set<'create' | 'put' | 'write'>()
  let hold: Promise<void> | undefined
  const fail = (call: 'create' | 'put' | 'write') => {
    if (failing.has(call)) throw new Error(`the store failed (${call})`)
  }
  const claims = {
    async create(key: string, value: string) {
      fail('create')
      if (records.has(key)) return false
      records.set(key, value)
      return true
    },
    async read(key: string) {
      return records.get(key)
    },
    async write(key: string, value: string) {
      fail('write')
      records.set(key, value)
    },
    async put(movie: Movie) {
      await hold
      fail('put')
      if (movies.has(movie.id)) return false
      movies.set(movie.id, movie)
      return true
    },
    async get(id: string) {
      return movies.get(id)
    },
    async remove(expected: Movie) {
      return movies.delete(expected.id)
    },
  }
  return {
    claims,
    movies,
    failing,
    holdMovieWrites() {
      let release = () => {}
      hold = new Promise((resolve) => {
        release = () => {
          hold = undefined
          resolve()
        }
      })
      return release
    },
  }
}

const STORE_TIMEOUT_MS = 5000
let nextId = 0
const aStoredMovie = (): Movie => ({ id: `id-${++nextId}`, ...(aMovie() as Omit<Movie, 'id'>) })

describe('an idempotency key across processes (issue 26)', () => {
  const input = aMovie()
  const inProcess = (
    claims: ReturnType<typeof sharedClaims>['claims'],
    ended: EndedAttempts,
    now: () => number,
  ) => {
    const add = () =>
      addOnce(claims, 'key', input, aStoredMovie(), now, {
        storeTimeoutMs: STORE_TIMEOUT_MS,
        ended,
      })
    const tryAdd = () =>
      add().then(
        () => expect.fail('expected the add to fail'),
        (e: unknown) => e as IdempotencyError,
      )
    return { add, tryAdd }
  }

  it('answers IN_FLIGHT, here and elsewhere, while the first attempt is still running', async () => {
    const store = sharedClaims()
    const now = () => 0
    const here = inProcess(store.claims, new EndedAttempts(), now)
    const elsewhere = inProcess(store.claims, new EndedAttempts(), now)
    const release = store.holdMovieWrites()
    const first = here.add()
    expect((await here.tryAdd()).code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT')
    expect((await elsewhere.tryAdd()).code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT')
    release()
    const movie = await first
    expect(await elsewhere.add()).toEqual(movie)
    expect([...store.movies.values()]).toEqual([movie])
  })

  it('lets another process finish at once an attempt that released its claim', async () => {
    const store = sharedClaims()
    const now = () => 0
    store.failing.add('put')
    const ended = await inProcess(store.claims, new EndedAttempts(), now).tryAdd()
    expect(ended).toBeInstanceOf(Error)
    store.failing.clear()
    // The claim was released (the store took that write): no lock for anyone.
    const elsewhere = inProcess(store.claims, new EndedAttempts(), now)
    const movie = await elsewhere.add()
    expect(await elsewhere.add()).toEqual(movie)
    expect([...store.movies.values()]).toEqual([movie])
  })

  it('holds an unreleased claim elsewhere only as long as an attempt’s store calls can take', async () => {
    const store = sharedClaims()
    let clock = 0
    const now = () => clock
    const here = inProcess(store.claims, new EndedAttempts(), now)
    const elsewhere = inProcess(store.claims, new EndedAttempts(), now)
    // The movie write fails, and so does the release: the store is down for writes.
    store.failing.add('put').add('write')
    expect(await here.tryAdd()).toBeInstanceOf(Error)
    store.failing.clear()

    expect((await elsewhere.tryAdd()).code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT')
    clock = 3 * STORE_TIMEOUT_MS - 1
    expect((await elsewhere.tryAdd()).code).toBe('IDEMPOTENCY_KEY_IN_FLIGHT')
    clock = 3 * STORE_TIMEOUT_MS
    const movie = await elsewhere.add()
    // The process where it ended never waited; both answer the one movie.
    expect(await here.add()).toEqual(movie)
    expect([...store.movies.values()]).toEqual([movie])
  })

  it('finishes here at once an attempt that ended here, released or not', async () => {
    const store = sharedClaims()
    const now = () => 0
    const here = inProcess(store.claims, new EndedAttempts(), now)
    store.failing.add('put').add('write')
    expect(await here.tryAdd()).toBeInstanceOf(Error)
    store.failing.clear()
    const movie = await here.add()
    expect(await inProcess(store.claims, new EndedAttempts(), now).add()).toEqual(movie)
    expect([...store.movies.values()]).toEqual([movie])
  })

  it('finishes here at once a claim stored by a create whose answer was lost', async () => {
    const store = sharedClaims()
    const now = () => 0
    const ended = new EndedAttempts()
    const here = inProcess(store.claims, ended, now)
    const create = store.claims.create
    // The claim is stored, then the call fails: the attempt cannot know it holds the claim.
    store.claims.create = async (key, value) => {
      await create(key, value)
      throw new Error('the connection ended before the answer')
    }
    expect(await here.tryAdd()).toBeInstanceOf(Error)
    store.claims.create = create
    expect((await inProcess(store.claims, new EndedAttempts(), now).tryAdd()).code).toBe(
      'IDEMPOTENCY_KEY_IN_FLIGHT',
    )
    const movie = await here.add()
    expect([...store.movies.values()]).toEqual([movie])
    expect(ended.size).toBe(0)
  })

  it('remembers a bounded number of ended attempts, the latest', () => {
    const ended = new EndedAttempts(2)
    for (const attempt of ['a', 'b', 'c']) ended.add(attempt)
    expect([ended.has('a'), ended.has('b'), ended.has('c'), ended.size]).toEqual([
      false,
      true,
      true,
      2,
    ])
  })
})

it('answers 409 IN_FLIGHT with Retry-After, so clients know when to try again', async () => {
  const busy = {
    ...createMovieLog(),
    addMovie: async () => {
      throw new IdempotencyError('IDEMPOTENCY_KEY_IN_FLIGHT', 'Still being handled; retry shortly')
    },
  }
  const response = await toWebHandler(busy)(
    new Request('http://movie-log.test/movies', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k' },
      body: JSON.stringify(aMovie()),
    }),
  )
  expect(response.status).toBe(409)
  expect(response.headers.get('retry-after')).toBe('1')
})
