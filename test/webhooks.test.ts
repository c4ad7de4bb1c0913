// Issue 60: outgoing webhooks through the library, delivered to a real receiver on 127.0.0.1:
// signed as Standard Webhooks specify (checked by their reference library), in order, retried
// through failures and timeouts, failing once the schedule is spent, never to a private address
// unless allowed, never through a redirect, and one owner's never another's.
import {
  createMovieLog,
  createMovieLogs,
  type Movie,
  startWebhookDelivery,
  type WebhookDeliveryOptions,
  WebhookValidationError,
  webhooksOf,
} from 'movie-log'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { payloadsOf, type Receiver, startReceiver } from './_receiver'

const stops: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop()
})

// The receiver is on 127.0.0.1: allowed here, as MOVIE_LOG_WEBHOOK_PRIVATE=1 allows it.
const LOCAL = { allowPrivateNetworks: true }
// A short retry schedule; a time limit long enough that only a receiver that hangs meets it.
const FAST: WebhookDeliveryOptions = { ...LOCAL, timeoutMs: 2000, retryDelaysMs: [20, 40, 80] }

function deliver(source: Parameters<typeof startWebhookDelivery>[0], options = FAST) {
  const delivery = startWebhookDelivery(source, options)
  stops.push(() => delivery.stop())
  return delivery
}

const titled = (title: string) => aMovie({ title })

/** The payloads the receiver answered 2xx, in the order it got them. */
const delivered = (receiver: Receiver) =>
  payloadsOf(receiver.received.filter((request) => request.answered === 200))

describe('registering endpoints', () => {
  it('answers the secret once, lists without it, removes, and refuses what is not an endpoint', async () => {
    const log = createMovieLog()
    const hooks = webhooksOf(log, LOCAL)
    const created = await hooks.add({ url: 'https://example.org/hooks', events: ['movie.added'] })
    expect(created).toEqual({
      id: expect.stringMatching(/^ep_/),
      url: 'https://example.org/hooks',
      events: ['movie.added'],
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: expect.any(String),
    })
    const [listed] = await hooks.list()
    expect(listed).toEqual({
      id: created.id,
      url: created.url,
      events: ['movie.added'],
      createdAt: created.createdAt,
      status: 'active',
      lastError: null,
      nextAttemptAt: null,
    })
    expect(JSON.stringify(await hooks.list())).not.toContain(created.secret)
    expect(await hooks.remove(created.id)).toBe(true)
    expect(await hooks.remove(created.id)).toBe(false)
    expect(await hooks.list()).toEqual([])

    const refused = async (input: unknown) => {
      const error = await webhooksOf(log)
        .add(input as never)
        .catch((caught: unknown) => caught)
      expect(WebhookValidationError.is(error)).toBe(true)
      return (error as WebhookValidationError).issues
    }
    expect(await refused({ url: 'ftp://example.org/' })).toEqual([
      { path: 'url', message: 'must be an http: or https: URL' },
    ])
    expect(await refused({ url: 'https://example.org/', events: ['movie.watched'], x: 1 })).toEqual(
      [
        { path: 'x', message: expect.stringContaining('is not a field') },
        { path: 'events', message: expect.stringContaining('movie.added, movie.updated') },
      ],
    )
    for (const url of [
      'http://127.0.0.1:9/',
      'http://[::1]/',
      'http://10.0.0.7/',
      'http://169.254.169.254/',
      'http://localhost:3000/',
    ]) {
      expect(await refused({ url })).toEqual([
        { path: 'url', message: expect.stringContaining('MOVIE_LOG_WEBHOOK_PRIVATE=1') },
      ])
    }
    expect(await webhooksOf(log).list()).toEqual([])
  })

  it('refuses a name that resolves to a private address, looked up at registration', async () => {
    const log = createMovieLog()
    const lookup = async (host: string) =>
      host === 'nas.test' ? ['192.168.1.5'] : ['93.184.215.14']
    const error = await webhooksOf(log, { lookup })
      .add({ url: 'http://nas.test:8123/api/webhook/movies' })
      .catch((caught: unknown) => caught)
    expect((error as WebhookValidationError).issues).toEqual([
      {
        path: 'url',
        message:
          'resolves to an address that is a private network address (192.168.1.5): set MOVIE_LOG_WEBHOOK_PRIVATE=1 to allow it',
      },
    ])
    // A public name, or one that does not resolve yet (delivery looks again), is let in.
    await webhooksOf(log, { lookup }).add({ url: 'https://example.org/hooks' })
    const unresolved = async () =>
      Promise.reject(Object.assign(new Error('no'), { code: 'ENOTFOUND' }))
    await webhooksOf(log, { lookup: unresolved }).add({ url: 'https://later.example/hooks' })
    expect((await webhooksOf(log).list()).map((endpoint) => endpoint.url)).toEqual([
      'https://example.org/hooks',
      'https://later.example/hooks',
    ])
  })

  it("keeps each owner's endpoints their own in a household", async () => {
    const logs = createMovieLogs()
    const alice = webhooksOf(logs, 'alice', LOCAL)
    const bob = webhooksOf(logs, 'bob', LOCAL)
    const [aliceReceiver, bobReceiver] = [await startReceiver(), await startReceiver()]
    const hers = await alice.add({ url: aliceReceiver.url })
    await bob.add({ url: bobReceiver.url })
    expect((await bob.list()).map((endpoint) => endpoint.url)).toEqual([bobReceiver.url])
    expect(await bob.remove(hers.id)).toBe(false)
    expect((await alice.list()).map((endpoint) => endpoint.id)).toEqual([hers.id])

    deliver(logs)
    await logs.of('alice').addMovie(titled('Alice 1'))
    await logs.of('bob').addMovie(titled('Bob 1'))
    await logs.of('alice').addMovie(titled('Alice 2'))
    await aliceReceiver.waitFor(2)
    await bobReceiver.waitFor(1)
    expect(payloadsOf(aliceReceiver.received).map((payload) => payload.data.title)).toEqual([
      'Alice 1',
      'Alice 2',
    ])
    expect(payloadsOf(bobReceiver.received).map((payload) => payload.data.title)).toEqual(['Bob 1'])
  })
})

describe('delivering', () => {
  it('signs each delivery as Standard Webhooks specify, checked by their reference library', async () => {
    const log = createMovieLog()
    const receiver = await startReceiver()
    const { secret } = await webhooksOf(log, LOCAL).add({ url: receiver.url })
    deliver(log)
    const added = await log.addMovie(titled('Heat'))
    const edited = await log.updateMovie(added.id, { notes: 'again' })
    await log.deleteMovie(added.id)
    const requests = await receiver.waitFor(3)
    const verifier = new Webhook(secret)
    const verified = requests.map((request) => verifier.verify(request.body, request.headers))
    expect(verified).toEqual([
      { type: 'movie.added', timestamp: expect.any(String), data: added },
      { type: 'movie.updated', timestamp: expect.any(String), data: edited },
      { type: 'movie.deleted', timestamp: expect.any(String), data: { id: added.id } },
    ])
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(3)
    expect(requests[0]?.headers['content-type']).toBe('application/json')
    // Another secret's signature does not pass.
    const other = new Webhook(`whsec_${btoa('x'.repeat(32))}`)
    const first = requests[0] as (typeof requests)[number]
    expect(() => other.verify(first.body, first.headers)).toThrow()
  })

  it('retries through a 500 and a receiver that does not answer, and delivers every change once, in order', async () => {
    const log = createMovieLog()
    const receiver = await startReceiver()
    await webhooksOf(log, LOCAL).add({ url: receiver.url })
    receiver.answerNext(500, 'hang', 200, 500, 500, 200)
    deliver(log)
    const movies: Movie[] = []
    for (const title of ['One', 'Two', 'Three', 'Four'])
      movies.push(await log.addMovie(titled(title)))
    const requests = await receiver.waitFor(8)
    expect(requests.map((request) => request.answered)).toEqual([
      500,
      'hang',
      200,
      500,
      500,
      200,
      200,
      200,
    ])
    // Each change delivered once, in order; the failed attempts are the same message again.
    expect(delivered(receiver).map((payload) => payload.data.id)).toEqual(
      movies.map((movie) => movie.id),
    )
    const ids = requests.map((request) => request.headers['webhook-id'])
    expect(new Set(ids.slice(0, 3)).size).toBe(1)
    expect(new Set(ids.slice(3, 6)).size).toBe(1)
    const bodies = requests.slice(0, 3).map((request) => request.body)
    expect(new Set(bodies).size).toBe(1)
    const [endpoint] = await webhooksOf(log).list()
    expect(endpoint).toMatchObject({ status: 'active', lastError: null, nextAttemptAt: null })
  })

  it('marks the endpoint failing once the schedule is spent, says why, and recovers on a 2xx', async () => {
    const log = createMovieLog()
    const receiver = await startReceiver()
    await webhooksOf(log, LOCAL).add({ url: receiver.url })
    // Three retries on the schedule, then one at its last wait, failing: five attempts.
    receiver.answerNext(500, 500, 500, 500, 503)
    deliver(log, { ...FAST, retryDelaysMs: [20, 40, 200] })
    const first = await log.addMovie(titled('One'))
    await receiver.waitFor(4)
    await expect.poll(async () => (await webhooksOf(log).list())[0]?.status).toBe('failing')
    const [failing] = await webhooksOf(log).list()
    expect(failing?.lastError).toEqual({ message: 'answered 500', at: expect.any(String) })
    expect(Date.parse(failing?.nextAttemptAt as string)).toBeGreaterThan(
      Date.parse(failing?.lastError?.at as string),
    )
    const second = await log.addMovie(titled('Two'))
    await receiver.waitFor(7)
    expect(delivered(receiver).map((payload) => payload.data.id)).toEqual([first.id, second.id])
    await expect.poll(async () => (await webhooksOf(log).list())[0]?.status).toBe('active')
    expect((await webhooksOf(log).list())[0]).toMatchObject({
      lastError: null,
      nextAttemptAt: null,
    })
  })

  it('sends only the events asked for, and nothing once removed', async () => {
    const log = createMovieLog()
    const receiver = await startReceiver()
    const { id } = await webhooksOf(log, LOCAL).add({
      url: receiver.url,
      events: ['movie.deleted'],
    })
    deliver(log)
    const kept = await log.addMovie(titled('Kept'))
    const gone = await log.addMovie(titled('Gone'))
    await log.updateMovie(kept.id, { notes: 'edited' })
    await log.deleteMovie(gone.id)
    const [only] = payloadsOf(await receiver.waitFor(1))
    expect(only).toMatchObject({ type: 'movie.deleted', data: { id: gone.id } })
    expect(await webhooksOf(log).remove(id)).toBe(true)
    await log.deleteMovie(kept.id)
    // A marker endpoint added after the removal gets the next change: by then, the removed one
    // would have had its own.
    const marker = await startReceiver()
    await webhooksOf(log, LOCAL).add({ url: marker.url })
    await log.addMovie(titled('After'))
    await marker.waitFor(1)
    expect(receiver.received).toHaveLength(1)
  })

  it('never follows a redirect', async () => {
    const log = createMovieLog()
    const receiver = await startReceiver()
    await webhooksOf(log, LOCAL).add({ url: receiver.url })
    receiver.answerNext(302, 307)
    deliver(log)
    const movie = await log.addMovie(titled('Heat'))
    const requests = await receiver.waitFor(3)
    expect(requests.map((request) => request.path)).toEqual(['/hooks', '/hooks', '/hooks'])
    expect(delivered(receiver).map((payload) => payload.data.id)).toEqual([movie.id])
  })

  it('tells the owner a redirect was refused', async () => {
    const log = createMovieLog()
    const receiver = await startReceiver()
    await webhooksOf(log, LOCAL).add({ url: receiver.url })
    receiver.answerNext(302, 302, 302, 302, 302, 302)
    deliver(log, { ...FAST, retryDelaysMs: [10_000] })
    await log.addMovie(titled('Heat'))
    await receiver.waitFor(1)
    await expect
      .poll(async () => (await webhooksOf(log).list())[0]?.lastError?.message)
      .toBe('answered 302, a redirect: redirects are not followed')
    expect(receiver.received.map((request) => request.path)).toEqual(['/hooks'])
  })

  it('refuses a host that resolves to a loopback address, unless private networks are allowed', async () => {
    const log = createMovieLog()
    const receiver = await startReceiver()
    // A name, not an address: registration lets it in, and delivery looks it up.
    const url = receiver.url.replace('127.0.0.1', 'receiver.test')
    await webhooksOf(log).add({ url })
    const lookup = async (host: string) => (host === 'receiver.test' ? ['127.0.0.1'] : [])
    deliver(log, { ...FAST, allowPrivateNetworks: false, lookup, retryDelaysMs: [10_000] })
    await log.addMovie(titled('Heat'))
    await expect
      .poll(async () => (await webhooksOf(log).list())[0]?.lastError?.message)
      .toBe('refused: receiver.test resolves to an address that is a loopback address (127.0.0.1)')
    expect(receiver.received).toHaveLength(0)
  })

  it('refuses options it could only misread, naming them', () => {
    const log = createMovieLog()
    expect(() => startWebhookDelivery(log, { retryDelaysMs: [] })).toThrow(/retryDelaysMs/)
    expect(() => startWebhookDelivery(log, { timeoutMs: 0 })).toThrow(/timeoutMs/)
    expect(() => startWebhookDelivery(log, { timeoutMs: 30_000, leaseMs: 40_000 })).toThrow(
      /leaseMs \(40000\) must be at least/,
    )
  })

  it('never slows an add: changes are logged while a delivery hangs', async () => {
    const log = createMovieLog()
    const receiver = await startReceiver()
    await webhooksOf(log, LOCAL).add({ url: receiver.url })
    receiver.answerNext('hang')
    deliver(log, { ...FAST, timeoutMs: 60_000, leaseMs: 600_000 })
    await log.addMovie(titled('First'))
    await receiver.waitFor(1)
    // The delivery of the first is still waiting for an answer: these adds do not wait for it.
    for (const title of ['Second', 'Third']) await log.addMovie(titled(title))
    expect((await log.listMovies()).movies).toHaveLength(3)
    expect(receiver.received).toHaveLength(1)
    receiver.release()
    await receiver.waitFor(3)
  })

  it('stops within its grace, cutting off a delivery that hangs, to send it again later', async () => {
    const log = createMovieLog()
    const receiver = await startReceiver()
    await webhooksOf(log, LOCAL).add({ url: receiver.url })
    receiver.answerNext('hang')
    const first = startWebhookDelivery(log, { ...FAST, timeoutMs: 60_000, leaseMs: 600_000 })
    const movie = await log.addMovie(titled('Heat'))
    await receiver.waitFor(1)
    await first.stop()
    expect((await webhooksOf(log).list())[0]?.lastError?.message).toBe(
      'cut off: the deliverer stopped',
    )
    deliver(log)
    await receiver.waitFor(2)
    expect(delivered(receiver).map((payload) => payload.data.id)).toEqual([movie.id])
  })

  it('stops, failing, an endpoint left further behind than the history keeps', async () => {
    const log = createMovieLog()
    const receiver = await startReceiver()
    await log.addMovie(titled('Before'))
    await webhooksOf(log, LOCAL).add({ url: receiver.url })
    // 1,001 changes after its cursor, while no deliverer runs: the first is out of the history.
    await Promise.all(Array.from({ length: 1001 }, (_, at) => log.addMovie(titled(`Movie ${at}`))))
    deliver(log)
    await expect.poll(async () => (await webhooksOf(log).list())[0]?.status).toBe('failing')
    const [stopped] = await webhooksOf(log).list()
    expect(stopped?.lastError?.message).toMatch(/more changes were made than the history keeps/)
    expect(stopped?.nextAttemptAt).toBeNull()
    expect(receiver.received).toHaveLength(0)
  })
})
