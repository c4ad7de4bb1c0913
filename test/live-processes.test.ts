// Issue 29 across processes: two `movie-log serve` processes on one store (Redis, PostgreSQL,
// a SQLite file), a real EventSource on process B, the changes made through process A.
import { join } from 'node:path'
import type { Movie } from 'movie-log'
import { afterEach, expect, it } from 'vitest'
import { household, openFeed, send, titles } from './_live-feeds'
import { aMovie } from './_movies'
import { createPrivatePostgres } from './_postgres'
import { type ServerProcess, startPrivateRedis, startServerProcess, stop } from './_processes'
import { describeUnless, describeWith, type Need } from './_services'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function serve(env: Record<string, string>, port?: number): Promise<ServerProcess> {
  const server = await startServerProcess(env, port)
  cleanups.push(() => stop(server, 'SIGKILL'))
  return server
}

/** Two server processes on `store`, serving a household of `names`. */
async function twoServers(store: string, names: string[]) {
  const { file, bearer } = household(tempFolder('movie-log-live-'), names)
  const env = { MOVIE_LOG_STORE: store, MOVIE_LOG_USERS: file }
  return { env, bearer, a: await serve(env), b: await serve(env) }
}

function describeLive(name: string, need: Need | undefined, store: () => Promise<string>) {
  const body = () => {
    it('an add, an edit and a delete through A reach an EventSource on B; a restart of B resumes with exactly the missed ones', async () => {
      const { env, bearer, a, b } = await twoServers(await store(), ['alice'])
      const alice = bearer.alice as Record<string, string>
      expect((await send(a.url, 'POST', aMovie({ title: 'Earlier' }), alice)).status).toBe(201)
      const feed = openFeed(b.url, alice)
      await feed.opened

      const added = await send(a.url, 'POST', aMovie({ title: 'Added' }), alice)
      expect(added.status).toBe(201)
      const movie = (await added.json()) as Movie
      // SQLite wakes other processes by a poll every 250 ms: the event is there well within 2 s
      // (the issue asks for 1 s), and on Redis and PostgreSQL sooner.
      await feed.events(1, 2000)
      const patched = await send(`${a.url}/${movie.id}`, 'PATCH', { title: 'Edited' }, alice)
      expect(patched.status).toBe(200)
      const edited = (await patched.json()) as Movie
      expect((await send(`${a.url}/${movie.id}`, 'DELETE', undefined, alice)).status).toBe(204)
      await feed.events(3)
      expect(feed.received.map(({ type, data }) => ({ type, data }))).toEqual([
        { type: 'added', data: movie },
        { type: 'updated', data: edited },
        { type: 'deleted', data: { id: movie.id } },
      ])

      // B goes away (its feeds end) and comes back on its port; meanwhile A takes three adds.
      expect(await stop(b)).toBe(0)
      for (const n of [1, 2, 3]) {
        const missed = await send(a.url, 'POST', aMovie({ title: `Missed ${n}` }), alice)
        expect(missed.status).toBe(201)
      }
      await serve(env, b.port)
      // The EventSource reconnects after its `retry:` (2 s) with Last-Event-ID.
      await feed.events(6, 20_000)
      expect((await send(a.url, 'POST', aMovie({ title: 'After' }), alice)).status).toBe(201)
      await feed.events(7)
      expect(titles(feed.received)).toEqual([
        'added Added',
        'updated Edited',
        `deleted ${movie.id}`,
        'added Missed 1',
        'added Missed 2',
        'added Missed 3',
        'added After',
      ])
      expect(new Set(feed.received.map(({ id }) => id)).size).toBe(7)
    }, 120_000)

    it('gives each owner of a household only their own events, whichever process wrote them', async () => {
      const { bearer, a, b } = await twoServers(await store(), ['alice', 'bob'])
      const alice = bearer.alice as Record<string, string>
      const bob = bearer.bob as Record<string, string>
      for (const who of [alice, bob]) {
        expect((await send(a.url, 'POST', aMovie({ title: 'Earlier' }), who)).status).toBe(201)
      }
      const feeds = { alice: openFeed(b.url, alice), bob: openFeed(a.url, bob) }
      await Promise.all([feeds.alice.opened, feeds.bob.opened])
      // Alice's feed is on B, Bob's on A. Each owner's writes come through both processes and
      // their last one through the process not holding their feed (it reaches it only by the
      // store's wake); every other write is another's, before it, local and from afar.
      const writes: [Record<string, string>, string, ServerProcess][] = [
        [alice, 'Alice 1', b],
        [bob, 'Bob 1', a],
        [bob, 'Bob 2', b],
        [alice, 'Alice 2', a],
        [bob, 'Bob 3', b],
      ]
      for (const [who, title, through] of writes) {
        expect((await send(through.url, 'POST', aMovie({ title }), who)).status).toBe(201)
      }
      await feeds.bob.events(3)
      await feeds.alice.events(2)
      expect(titles(feeds.alice.received)).toEqual(['added Alice 1', 'added Alice 2'])
      expect(titles(feeds.bob.received)).toEqual(['added Bob 1', 'added Bob 2', 'added Bob 3'])
    }, 60_000)
  }
  const title = `live changes across two server processes on ${name}`
  if (need) describeWith(need, title, body)
  else describeUnless(undefined, 'nothing', title, body)
}

describeLive('Redis', 'redis-server', async () => {
  const redis = await startPrivateRedis()
  cleanups.push(() => stop(redis, 'SIGKILL'))
  return redis.url
})

describeLive('PostgreSQL', 'POSTGRES_URL', async () => {
  const postgres = await createPrivatePostgres('live')
  cleanups.push(() => postgres.drop())
  return postgres.url
})

describeLive(
  'SQLite',
  undefined,
  async () => `sqlite://${join(tempFolder('movie-log-live-db-'), 'movies.sqlite')}`,
)
