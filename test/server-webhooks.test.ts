// Issue 60: `movie-log serve` delivers webhooks. A receiver on 127.0.0.1 is refused by default
// and let in with MOVIE_LOG_WEBHOOK_PRIVATE=1; two servers on one SQLite file send each change
// once, in order, signed as Standard Webhooks specify, whichever server the change was made on.
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { afterEach, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { type ServerProcess, startServerProcess, stop } from './_processes'
import { payloadsOf, startReceiver } from './_receiver'
import { tempFolders } from './_temp'

const folder = tempFolders()
const servers: ServerProcess[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => stop(server)))
})

const serve = async (env: Record<string, string>) => {
  const server = await startServerProcess(env)
  servers.push(server)
  return server
}

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

it('refuses a receiver on 127.0.0.1 by default; with MOVIE_LOG_WEBHOOK_PRIVATE=1, two servers on one file deliver each change once', async () => {
  const store = `sqlite://${join(folder('movie-log-server-webhooks-'), 'movies.sqlite')}`
  const receiver = await startReceiver()

  const closed = await serve({ MOVIE_LOG_STORE: store })
  const refused = await post(`${closed.url}/webhooks`, { url: receiver.url })
  expect(refused.status).toBe(400)
  expect((await refused.json()).errors).toEqual([
    { pointer: '/url', detail: expect.stringContaining('MOVIE_LOG_WEBHOOK_PRIVATE=1') },
  ])
  await stop(closed)

  // Registered before both start, so that both deliverers know of it from their start.
  const env = { MOVIE_LOG_STORE: store, MOVIE_LOG_WEBHOOK_PRIVATE: '1' }
  const registrar = await serve(env)
  const created = await post(`${registrar.url}/webhooks`, { url: receiver.url })
  expect(created.status).toBe(201)
  const { secret } = await created.json()
  await stop(registrar)
  const [first, second] = [await serve(env), await serve(env)]
  const ids: string[] = []
  for (let at = 0; at < 6; at++) {
    const server = at % 2 ? second : first
    const added = await post(server.url, aMovie({ title: `Movie ${at}` }))
    ids.push((await added.json()).id)
  }
  const requests = await receiver.waitFor(ids.length, 30_000)
  // Both servers stop, each waiting for its deliveries in flight: then nothing more can come.
  await Promise.all([stop(first), stop(second)])
  expect(receiver.received).toHaveLength(ids.length)
  const verifier = new Webhook(secret)
  for (const request of requests) verifier.verify(request.body, request.headers)
  expect(payloadsOf(requests).map((payload) => [payload.type, payload.data.id])).toEqual(
    ids.map((id) => ['movie.added', id]),
  )
})
