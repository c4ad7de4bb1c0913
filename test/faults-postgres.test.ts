// Issue 22: PostgreSQL connections that die (a restart, a failover, an idle-connection reaper)
// must not end the example server, and every add retried with its Idempotency-Key must end as
// exactly one movie. Each test cuts only a database and role of its own.
import type { Movie } from 'movie-log'
import type { Problem } from 'movie-log/web'
import { afterEach, expect, it } from 'vitest'
import { type Added, addUntilCreated, assertAlive } from './_adds'
import { aMovie } from './_movies'
import { createPrivatePostgres, type PrivatePostgres } from './_postgres'
import { type Child, startServerProcess, stop } from './_processes'
import { describeWith } from './_services'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function serverOnPrivatePostgres(tag: string) {
  const postgres: PrivatePostgres = await createPrivatePostgres(tag)
  cleanups.push(() => postgres.drop())
  const server = await startServerProcess({ MOVIE_LOG_STORE: postgres.url })
  cleanups.push(() => stop(server as Child, 'SIGKILL'))
  return { postgres, server }
}

/**
 * The ids listed. A cut can land after the last add is answered: until the pool has replaced
 * the connections it ended, a read meets one and answers 503, as a client retrying would see.
 */
async function listIds(url: string): Promise<string[]> {
  let ids: string[] = []
  const status = async () => {
    const response = await fetch(url)
    if (response.ok) ids = ((await response.json()) as Movie[]).map((movie) => movie.id)
    else await response.body?.cancel()
    return response.status
  }
  await expect.poll(status, { interval: 20 }).toBe(200)
  return ids
}

/** Every add answered 201 is listed, once, and nothing else is. */
async function expectExactlyOnce(url: string, added: Added[]) {
  const listed = await listIds(url)
  expect(new Set(listed).size).toBe(listed.length)
  expect(listed.sort()).toEqual(added.map(({ movie }) => movie.id).sort())
}

describeWith('POSTGRES_URL', 'the example server on PostgreSQL, when connections die', () => {
  it('stays up when every connection is terminated while idle', async () => {
    const { postgres, server } = await serverOnPrivatePostgres('idle')
    const first = await addUntilCreated(server, 'idle-1')
    // The pool now holds idle connections: end them all, as a PostgreSQL restart would.
    expect(await postgres.terminate()).toBeGreaterThan(0)
    await expect.poll(() => postgres.connections(), { interval: 20 }).toBe(0)

    const second = await addUntilCreated(server, 'idle-2')
    const third = await addUntilCreated(server, 'idle-3')
    assertAlive(server)
    await expectExactlyOnce(server.url, [first, second, third])
  }, 120_000)

  it('stays up when every connection is terminated under load, and adds each movie once', async () => {
    const { postgres, server } = await serverOnPrivatePostgres('load')
    let acknowledged = 0
    let cut: Promise<number> | undefined
    const add = async (n: number) => {
      const added = await addUntilCreated(server, `load-${n}`)
      // Cut twice, with adds in flight each time.
      if (++acknowledged === 40 || acknowledged === 120) cut = postgres.terminate()
      return added
    }
    const added = await Promise.all(Array.from({ length: 200 }, (_, n) => add(n)))
    await cut
    assertAlive(server)
    await expectExactlyOnce(server.url, added)
  }, 120_000)

  it('answers 503 while PostgreSQL refuses connections, then 201 again', async () => {
    const { postgres, server } = await serverOnPrivatePostgres('refuse')
    const before = await addUntilCreated(server, 'refuse-1')

    const oldLimit = await postgres.setConnectionLimit(0)
    cleanups.push(() => postgres.setConnectionLimit(oldLimit))
    await postgres.terminate()
    await expect.poll(() => postgres.connections(), { interval: 20 }).toBe(0)

    const refused = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'refuse-2' },
      body: JSON.stringify(aMovie({ title: 'Movie refuse-2' })),
    })
    expect(refused.status).toBe(503)
    // PostgreSQL's refusal answered (not the store timeout), in words an operator can act on;
    // the log line adds PostgreSQL's own code.
    expect(((await refused.json()) as Problem).detail).toMatch(/too many connections/)
    await server.waitForLine(/^POST \/movies 503 .*too many connections\) \[53300\]$/)
    expect((await fetch(server.url)).status).toBe(503)
    assertAlive(server)

    await postgres.setConnectionLimit(oldLimit)
    const after = await addUntilCreated(server, 'refuse-3')
    await expectExactlyOnce(server.url, [before, after])
  }, 120_000)
})
