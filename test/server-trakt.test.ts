import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { freePort } from './_ports'
import { CLI } from './_processes'
import { childrenOfEachTest } from './_server-client'
import { serverStores } from './_server-stores'
import { tempFolders } from './_temp'
import { refusal, signIn, traktClient, traktMovie } from './_trakt'

// A published Trakt client (trakt.tv from npm), its base URL set to `{base}/trakt`, against
// `movie-log serve`, a real listening server, on each store.
const tempFolder = tempFolders()
const { running, start } = childrenOfEachTest()
const TOKEN = 'trakt-person-t0ken-5d1e'
const PARIS = { MOVIE_LOG_TIME_ZONE: 'Europe/Paris' }
const ROOT = fileURLToPath(new URL('..', import.meta.url))

const SHAWSHANK = traktMovie('The Shawshank Redemption', 1994, 'tt0111161')
const HEAT = traktMovie('Heat', 1995, 'tt0113277')

const diary = async (url: string, token: string) =>
  (await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()) as Movie[]

const { stores, cleanup } = serverStores(tempFolder, running, 'trakt')

for (const { name, describeStore, open } of stores) {
  describeStore(`a Trakt client through the server on ${name}`, () => {
    // The device flow waits one poll interval (5 s) by design; the timeout is a hang guard.
    it('signs in by the device flow, scrobbles once, reads, adds and removes history', {
      timeout: 180_000,
    }, async () => {
      try {
        const env = { MOVIE_LOG_STORE: await open(), MOVIE_LOG_TOKEN: TOKEN, ...PARIS }
        // Two processes on one store: what one issued or logged, the other knows.
        const [first, second] = [await start(env), await start(env)]
        const trakt = traktClient(first.url)
        const { codes, tokens } = await signIn(trakt, first.url, TOKEN)
        expect(codes).toMatchObject({ expires_in: 600, interval: 5 })
        expect(codes.verification_url).toBe(`${new URL(first.url).origin}/activate`)
        expect(codes.user_code).toMatch(/^[A-Z2-9]{8}$/)
        expect(tokens.expires_in).toBeGreaterThan(0)
        // The same code again: Trakt's 409, already used.
        expect((await refusal(trakt.poll_access({ ...codes, interval: 0.01 }))).status).toBe(409)
        expect((await trakt.users.settings()).user.username).toBe('movie-log')

        const other = traktClient(second.url)
        await other.import_token(trakt.export_token())
        expect(await trakt.scrobble.start({ movie: SHAWSHANK, progress: 1.5 })).toMatchObject({
          action: 'start',
          progress: 1.5,
        })
        const stopped = await trakt.scrobble.stop({ movie: SHAWSHANK, progress: 95 })
        expect(stopped).toMatchObject({
          action: 'scrobble',
          progress: 95,
          movie: { title: 'The Shawshank Redemption', year: 1994 },
        })
        expect(Number.isSafeInteger(stopped.id)).toBe(true)
        // The same stop again, through the other process: 409 with when it was, logged once.
        const again = await refusal(other.scrobble.stop({ movie: SHAWSHANK, progress: 95 }))
        expect(again.status).toBe(409)
        expect(Date.parse(again.body.expires_at) - Date.parse(again.body.watched_at)).toBe(3600_000)
        expect(await trakt.scrobble.stop({ movie: HEAT, progress: 40 })).toMatchObject({
          action: 'pause',
        })
        expect((await refusal(trakt.scrobble.stop({ movie: HEAT, progress: 0.5 }))).status).toBe(
          422,
        )
        let movies = await diary(first.url, TOKEN)
        expect(movies.map((movie) => movie.title)).toEqual(['The Shawshank Redemption'])

        const bulk = {
          movies: [
            { ...HEAT, watched_at: '2024-06-01T18:30:00.000Z' },
            { ...traktMovie('Alien', 1979, 'tt0078748'), watched_at: '2023-01-02T20:00:00.000Z' },
            { ...traktMovie('Ran', 1985, 'tt0089881'), watched_at: '2022-05-05T19:00:00.000Z' },
            { title: 'Unknown', year: 2001, ids: { tmdb: 123 } },
          ],
        }
        const added = await trakt.sync.history.add(bulk)
        expect(added.added).toEqual({ movies: 3, episodes: 0 })
        expect(added.not_found.movies).toEqual([bulk.movies[3]])
        expect((await other.sync.history.add(bulk)).added.movies).toBe(0)
        movies = await diary(first.url, TOKEN)
        expect(movies.find((movie) => movie.title === 'Heat')?.screenedDate).toBe(
          '2024-06-01T20:30:00.000',
        )
        // Ratings: Heat's entry rated, read back through the other process, then removed.
        const rated = await trakt.sync.ratings.add({ movies: [{ ...HEAT, rating: 8 }] })
        expect(rated).toMatchObject({ added: { movies: 1 }, not_found: { movies: [] } })
        expect(await other.sync.ratings.get({ type: 'movies' })).toMatchObject([
          {
            rating: 8,
            type: 'movie',
            rated_at: '2024-06-01T18:30:00.000Z',
            movie: { title: 'Heat' },
          },
        ])
        expect((await trakt.sync.ratings.remove({ movies: [HEAT] })).deleted.movies).toBe(1)
        expect(await trakt.sync.ratings.get()).toEqual([])

        const page1 = await trakt.sync.history.get({
          type: 'movies',
          page: 1,
          limit: 3,
          pagination: true,
        })
        expect(page1.pagination).toEqual({
          'item-count': '4',
          limit: '3',
          page: '1',
          'page-count': '2',
        })
        const page2 = await trakt.sync.history.get({
          type: 'movies',
          page: 2,
          limit: 3,
          pagination: true,
        })
        const entries = [...page1.data, ...page2.data]
        expect(entries.map((entry: { movie: { title: string } }) => entry.movie.title)).toEqual([
          'The Shawshank Redemption',
          'Heat',
          'Alien',
          'Ran',
        ])
        expect(entries[1]).toMatchObject({
          watched_at: '2024-06-01T18:30:00.000Z',
          type: 'movie',
          action: 'watch',
        })
        // Ids are stable: the other process reads the same.
        expect(
          (await other.sync.history.get({ type: 'movies', limit: 10 })).map(
            (entry: { id: number }) => entry.id,
          ),
        ).toEqual(entries.map((entry: { id: number }) => entry.id))
        expect(entries[0].id).toBe(stopped.id)
        const ranged = await trakt.sync.history.get({
          start_at: '2023-01-01T00:00:00Z',
          end_at: '2024-01-01T00:00:00Z',
        })
        expect(ranged.map((entry: { movie: { title: string } }) => entry.movie.title)).toEqual([
          'Alien',
        ])

        const removed = await trakt.sync.history.remove({
          ids: [entries[2].id, 42],
          movies: [{ ids: { imdb: 'tt0089881' } }],
        })
        expect(removed.deleted).toEqual({ movies: 2, episodes: 0 })
        expect(removed.not_found.ids).toEqual([42])
        expect((await diary(first.url, TOKEN)).map((movie) => movie.title).sort()).toEqual([
          'Heat',
          'The Shawshank Redemption',
        ])
        expect(
          (await trakt.sync.watched({ type: 'movies' })).map((row: { plays: number }) => row.plays),
        ).toEqual([1, 1])

        // Refreshed, the old pair is spent; revoked, the new one stops acting.
        const old = trakt.export_token()
        await trakt.refresh_token()
        await other.import_token(old)
        expect((await refusal(other.users.settings())).status).toBe(401)
        expect((await trakt.users.settings()).user.username).toBe('movie-log')
        const revoked = trakt.export_token()
        trakt.revoke_token()
        await other.import_token(revoked)
        await expect.poll(async () => (await refusal(other.users.settings())).status).toBe(401)
        // The client sends its revoke and waits for nothing: the server is stopped only once
        // the answer has gone out (else the client's request fails unhandled, a hang-up).
        await first.waitForLine(/^POST \/movies\/trakt\/oauth\/revoke 200 /)
        // No token, no code and no device code in the request log.
        const lines = [...first.lines, ...second.lines].join('\n')
        for (const secret of [
          TOKEN,
          tokens.access_token,
          tokens.refresh_token,
          codes.device_code,
          revoked.access_token,
        ]) {
          expect(lines).not.toContain(secret)
        }
      } finally {
        await cleanup()
      }
    })
  })
}

const cli = (args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })

describe('a Trakt client on a household server', () => {
  it('acts for the person who approved its code, in their diary only', async () => {
    const folder = tempFolder('movie-log-trakt-')
    const users = join(folder, 'users')
    const port = await freePort()
    const tokenOf = (name: string) => {
      const added = cli(['user', 'add', name, '--users', users])
      expect(added.status, added.stderr).toBe(0)
      return added.stdout.trim()
    }
    const [alice, bob] = [tokenOf('alice'), tokenOf('bob')]
    const env = {
      MOVIE_LOG_STORE: `sqlite://${join(folder, 'movies.sqlite')}`,
      MOVIE_LOG_USERS: users,
      ...PARIS,
    }
    const server = await start(env, port)
    const [alicesApp, bobsApp] = [traktClient(server.url), traktClient(server.url)]
    await signIn(alicesApp, server.url, alice)
    await signIn(bobsApp, server.url, bob)
    expect((await alicesApp.users.settings()).user.username).toBe('alice')
    expect((await bobsApp.users.settings()).user.username).toBe('bob')
    await alicesApp.scrobble.stop({ movie: SHAWSHANK, progress: 95 })
    // Bob's stop of the same movie is his own watch: no 409 from Alice's.
    await bobsApp.scrobble.stop({ movie: SHAWSHANK, progress: 95 })
    await bobsApp.sync.history.add({
      movies: [{ ...HEAT, watched_at: '2024-06-01T18:30:00.000Z' }],
    })
    const titles = async (token: string) =>
      (await diary(server.url, token)).map((movie) => movie.title)
    expect(await titles(alice)).toEqual(['The Shawshank Redemption'])
    expect((await titles(bob)).sort()).toEqual(['Heat', 'The Shawshank Redemption'])
    const alicesHistory = await alicesApp.sync.history.get({})
    expect(alicesHistory.map((entry: { movie: { title: string } }) => entry.movie.title)).toEqual([
      'The Shawshank Redemption',
    ])
    // Bob's history ids name nothing in Alice's diary.
    const bobsIds = (await bobsApp.sync.history.get({})).map((entry: { id: number }) => entry.id)
    const removed = await alicesApp.sync.history.remove({ ids: bobsIds })
    expect(removed.deleted.movies).toBe(0)
    expect(await titles(bob)).toHaveLength(2)
    // Ratings too: Alice rates and unrates her own entry only; Heat is not in her diary.
    const rated = await alicesApp.sync.ratings.add({
      movies: [
        { ...SHAWSHANK, rating: 9 },
        { ...HEAT, rating: 3 },
      ],
    })
    expect(rated).toMatchObject({
      added: { movies: 1 },
      not_found: { movies: [{ title: 'Heat' }] },
    })
    expect(await bobsApp.sync.ratings.get()).toEqual([])
    expect((await bobsApp.sync.ratings.remove({ movies: [SHAWSHANK] })).deleted.movies).toBe(0)
    expect(await alicesApp.sync.ratings.get()).toMatchObject([{ rating: 9 }])
    // A person's own token is not a Trakt token, and the page's approval needs a person.
    expect(
      (
        await fetch(`${server.url}/trakt/users/settings`, {
          headers: { authorization: `Bearer ${alice}` },
        })
      ).status,
    ).toBe(401)
    const anonymous = await fetch(`${server.url}/trakt/oauth/device/approve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_code: 'ABCDEFGH' }),
    })
    expect(anonymous.status).toBe(401)
  })
})
