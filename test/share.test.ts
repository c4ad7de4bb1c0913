import { join } from 'node:path'
import { createMovieLog, createMovieLogs, type MovieLogStoreInput } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { SOLE_OWNER } from '../src/core/driver'
import { openShare } from '../src/core/share-open'
import { openUrlDriver } from './_backends'
import { aMovie } from './_movies'
import { describeWith, type Need } from './_services'
import { tempFolders } from './_temp'

// A diary's share link in the store (issue 60): off until shared, a new link revoking the old,
// one diary per link; on memory and SQLite, and on Redis and PostgreSQL when they are set.
const folder = tempFolders()
let namespaces = 0

interface Backend {
  need?: Need
  /** One store for a test: every log of it made on this. */
  store(): MovieLogStoreInput
  /** Removes what a test wrote under `namespace` of a networked store. */
  clean?(namespace: string, owners: string[]): Promise<void>
}

const networked = (url: () => string): Pick<Backend, 'store' | 'clean'> => ({
  store: url,
  clean: async (namespace, owners) => {
    const driver = await openUrlDriver(url(), { namespace, connectTimeoutMs: 1000 })
    for (const owner of [...owners, SOLE_OWNER]) await driver.drop(owner)
    await driver.close()
  },
})

const BACKENDS: Record<string, Backend> = {
  memory: { store: () => new Map() },
  SQLite: { store: () => `sqlite://${join(folder('movie-log-share-'), 'movies.sqlite')}` },
  Redis: { need: 'REDIS_URL', ...networked(() => process.env.REDIS_URL as string) },
  PostgreSQL: { need: 'POSTGRES_URL', ...networked(() => process.env.POSTGRES_URL as string) },
}

for (const [name, backend] of Object.entries(BACKENDS)) {
  const suite = () => {
    /** Many logs and the one log on one store and namespace, closed and cleaned after `run`. */
    async function onStore(run: (stores: ReturnType<typeof open>) => Promise<void>) {
      const namespace = `share-test-${process.pid}-${++namespaces}`
      const stores = open(backend.store(), namespace)
      try {
        await run(stores)
      } finally {
        await Promise.all([stores.logs.close(), stores.one.close()])
        await backend.clean?.(namespace, ['alice', 'bob'])
      }
    }
    const open = (store: MovieLogStoreInput, namespace: string) => ({
      logs: createMovieLogs(store, { namespace }),
      one: createMovieLog(store, { namespace }),
    })

    it('is off until shared; a new link revokes the old; unshare turns it off', () =>
      onStore(async ({ logs }) => {
        const alice = logs.of('alice')
        await alice.addMovie(aMovie({ title: 'Heat' }))
        expect(await alice.shared()).toBeUndefined()
        const first = await alice.share()
        expect(first).toEqual({
          token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
          path: `/s/${first.token}`,
          notes: false,
          index: false,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        })
        expect(await alice.shared()).toEqual(first)
        const opened = await openShare(logs, first.token)
        expect(opened?.link).toEqual(first)
        expect((await opened?.log.listMovies())?.movies.map((movie) => movie.title)).toEqual([
          'Heat',
        ])

        const second = await alice.share({ notes: true, index: true })
        expect(second.token).not.toBe(first.token)
        expect(await openShare(logs, first.token)).toBeUndefined()
        expect((await openShare(logs, second.token))?.link).toMatchObject({
          notes: true,
          index: true,
        })

        // Two links made at once: the one the owner's record keeps opens, never the other.
        const both = await Promise.all([alice.share(), alice.share()])
        const kept = (await alice.shared())?.token
        const opens = await Promise.all(both.map(({ token }) => openShare(logs, token)))
        expect(opens.map((opened) => opened?.link.token)).toEqual(
          both.map(({ token }) => (token === kept ? kept : undefined)),
        )

        expect(await alice.unshare()).toBe(true)
        expect(await openShare(logs, kept as string)).toBeUndefined()
        expect(await alice.shared()).toBeUndefined()
        expect(await alice.unshare()).toBe(false)
      }))

    it('opens only the diary it was made for: another owner’s, the one log’s and a dropped owner’s apart', () =>
      onStore(async ({ logs, one }) => {
        await logs.of('alice').addMovie(aMovie({ title: 'Heat' }))
        await logs.of('bob').addMovie(aMovie({ title: 'Alien' }))
        await one.addMovie(aMovie({ title: 'Solaris' }))
        const alice = await logs.of('alice').share()
        const bob = await logs.of('bob').share()
        const sole = await one.share()
        const titles = async (source: typeof logs | typeof one, token: string) => {
          const opened = await openShare(source, token)
          return opened && (await opened.log.listMovies()).movies.map((movie) => movie.title)
        }
        expect(await titles(logs, alice.token)).toEqual(['Heat'])
        expect(await titles(logs, bob.token)).toEqual(['Alien'])
        expect(await titles(one, sole.token)).toEqual(['Solaris'])
        // The one log's link is not a person's, and a person's is not the one log's.
        expect(await openShare(logs, sole.token)).toBeUndefined()
        expect(await openShare(one, alice.token)).toBeUndefined()
        // A token that is not one (a shape, a prefix, a case changed) opens nothing.
        for (const token of [
          '',
          alice.token.slice(1),
          `${alice.token}x`,
          alice.token.toLowerCase(),
          '../alice',
        ]) {
          if (token !== alice.token) expect(await openShare(logs, token)).toBeUndefined()
        }
        // Bob's share changed nothing of Alice's; dropping Bob ends his link alone.
        await logs.drop('bob')
        expect(await openShare(logs, bob.token)).toBeUndefined()
        expect(await titles(logs, alice.token)).toEqual(['Heat'])
      }))
  }
  if (backend.need) describeWith(backend.need, `share links on ${name}`, suite)
  else describe(`share links on ${name}`, suite)
}

describe('share tokens', () => {
  it('are 192 random bits from Web Crypto, base64url: never the same twice', async () => {
    const log = createMovieLog()
    const tokens = new Set<string>()
    for (let made = 0; made < 200; made++) tokens.add((await log.share()).token)
    expect(tokens.size).toBe(200)
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/)
      expect(Buffer.from(token, 'base64url')).toHaveLength(24)
    }
  })
})
