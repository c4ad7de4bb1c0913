// Issue 55, item 2: a write past storeTimeoutMs is left running and may land. Its 503 says so
// (`mayHaveLanded`, beside `reason: 'timeout'`), and the client sends a write without an
// Idempotency-Key only once when it may have landed, where it used to follow Retry-After and
// store it twice.
import Keyv, { type KeyvStoreAdapter } from 'keyv'
import { createMovieLog, type Movie, type MovieLog, StoreUnavailableError } from 'movie-log'
import { createMovieLogClient } from 'movie-log/client'
import { type Problem, toWebHandler } from 'movie-log/web'
import { expect, it } from 'vitest'
import { aMovie } from './_movies'

const URL_OF_LOG = 'http://movie-log.test/movies'

/**
 * A keyv store (the scan driver's: a call can hang) whose writes of the kind held (`set` or
 * `delete`) wait until released.
 */
function storeWithHeldWrites() {
  const map = new Map<string, unknown>()
  let held: { kind: 'set' | 'delete'; until: Promise<void> } | undefined
  let release = () => {}
  const writes: Promise<unknown>[] = []
  const write = (kind: 'set' | 'delete', change: () => unknown) => {
    const done = (async () => {
      if (held?.kind === kind) await held.until
      return change()
    })()
    writes.push(done)
    return done
  }
  const adapter = {
    get: async (key: string) => map.get(key),
    set: (key: string, value: unknown) => write('set', () => Boolean(map.set(key, value))),
    delete: (key: string) => write('delete', () => map.delete(key)),
    clear: async () => map.clear(),
    has: async (key: string) => map.has(key),
  }
  const keyv = new Keyv({ store: adapter as unknown as KeyvStoreAdapter })
  keyv.iterator = async function* () {
    for (const [key, value] of map) {
      const name = key.slice(`${keyv.namespace}:`.length)
      yield [name, ((await keyv.deserializeData(value as string)) as { value: unknown }).value]
    }
  } as unknown as Keyv['iterator']
  return {
    keyv,
    hold(kind: 'set' | 'delete' = 'set') {
      held = {
        kind,
        until: new Promise((resolve) => {
          release = resolve
        }),
      }
    },
    /** Lets the held writes finish, and resolves once they have. */
    async release() {
      release()
      held = undefined
      await Promise.all(writes)
    },
  }
}

function logOn(store: ReturnType<typeof storeWithHeldWrites>) {
  return createMovieLog(store.keyv, { storeTimeoutMs: 100 })
}

it('answers a write past storeTimeoutMs 503 with mayHaveLanded, and it lands', async () => {
  const store = storeWithHeldWrites()
  const log = logOn(store)
  const handle = toWebHandler(log, { onError: () => {} })
  store.hold()
  const post = await handle(
    new Request(URL_OF_LOG, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(aMovie({ title: 'Late' })),
    }),
  )
  expect(post.status).toBe(503)
  // No Retry-After: a client retrying on it alone would store the movie twice.
  expect(post.headers.get('retry-after')).toBeNull()
  const problem = (await post.json()) as Problem
  expect(problem).toMatchObject({ reason: 'timeout', mayHaveLanded: true })
  expect(problem.detail).toMatch(/may still be stored.*Idempotency-Key/)
  const error = await log.addMovie(aMovie()).catch((e: unknown) => e)
  expect(StoreUnavailableError.is(error) && error.mayHaveLanded).toBe(true)

  // It did land: the 503 said "try again" of a movie now stored.
  await store.release()
  const listed = (await (await handle(new Request(URL_OF_LOG))).json()) as Movie[]
  expect(listed.map((movie) => movie.title)).toContain('Late')
})

it('sends a PATCH or DELETE once when its 503 says it may have landed', async () => {
  // A store of its own for each: a held write holds that log's later calls too.
  const attempt = async (
    kind: 'set' | 'delete',
    write: (client: MovieLog, id: string) => Promise<unknown>,
  ) => {
    const store = storeWithHeldWrites()
    const log = logOn(store)
    const movie = await log.addMovie(aMovie())
    const handle = toWebHandler(log, { onError: () => {} })
    const sent: string[] = []
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init)
      sent.push(request.method)
      return handle(request)
    }
    store.hold(kind)
    const client = createMovieLogClient(URL_OF_LOG, { fetch, retries: 1 })
    const error = await write(client, movie.id).catch((e: unknown) => e)
    await store.release()
    return { error, sent }
  }
  const update = await attempt('set', (client, id) => client.updateMovie(id, { notes: 'once' }))
  expect(StoreUnavailableError.is(update.error) && update.error.mayHaveLanded).toBe(true)
  expect(update.sent).toEqual(['PATCH'])
  const deletion = await attempt('delete', (client, id) => client.deleteMovie(id))
  expect(StoreUnavailableError.is(deletion.error) && deletion.error.mayHaveLanded).toBe(true)
  expect(deletion.sent).toEqual(['DELETE'])
})

it('sends an unkeyed write once when its answer is lost, and retries a keyed add', async () => {
  const sent: string[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push(new Request(input, init).method)
    throw new TypeError('fetch failed')
  }
  const client = createMovieLogClient(URL_OF_LOG, { fetch, retries: 1 })
  const error = await client.deleteMovie('some-id').catch((e: unknown) => e)
  expect(StoreUnavailableError.is(error) && error.mayHaveLanded).toBe(true)
  expect(sent).toEqual(['DELETE'])
  await expect(client.addMovie(aMovie())).rejects.toBeInstanceOf(StoreUnavailableError)
  expect(sent).toEqual(['DELETE', 'POST', 'POST'])
})

// Review of issue 55 item 2: nothing reaches a server that refused the connection (restarting),
// so an unkeyed edit or delete is sent again as it was before.
it('sends an unkeyed write again when no connection was made', async () => {
  const sent: string[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push(new Request(input, init).method)
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    throw new TypeError('fetch failed', { cause: refused })
  }
  const client = createMovieLogClient(URL_OF_LOG, { fetch, retries: 2 })
  const error = await client.deleteMovie('some-id').catch((e: unknown) => e)
  expect(StoreUnavailableError.is(error) && error.mayHaveLanded).toBe(false)
  expect(sent).toEqual(['DELETE', 'DELETE', 'DELETE'])
})
