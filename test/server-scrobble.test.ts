import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Movie } from 'movie-log'
import { describe, expect, it } from 'vitest'
import { ConfigError, configFromEnv } from '../src/server/config'
import { freePort } from './_ports'
import { CLI } from './_processes'
import {
  type Delivery,
  embyDelivery,
  FINISHED,
  fixture,
  jellyfinDelivery,
  plexDelivery,
  requestInit,
} from './_scrobble'
import { childrenOfEachTest, list } from './_server-client'
import { serverStores } from './_server-stores'
import { tempFolders } from './_temp'

// Media servers' webhooks through `movie-log serve`, a real listening server, on each store.
const tempFolder = tempFolders()
const { running, start } = childrenOfEachTest()
const TOKEN = 'scrobble-t0ken-9f3a'
const PARIS = { MOVIE_LOG_TIME_ZONE: 'Europe/Paris' }

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const cli = (args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })

/** `movie-log user add NAME --url BASE`: the token, and the webhook URLs it printed. */
function addUser(file: string, name: string, base: string) {
  const result = cli(['user', 'add', name, '--users', file, '--url', base])
  expect(result.status, result.stderr).toBe(0)
  const urls = result.stderr.match(/https?:\/\/\S+/g) ?? []
  return { token: result.stdout.trim(), urls, plex: urls[0] as string }
}

const deliver = (url: string, source: string, delivery: Delivery, token = TOKEN) =>
  fetch(`${url}/scrobble/${source}?token=${encodeURIComponent(token)}`, requestInit(delivery))

const { stores, cleanup } = serverStores(tempFolder, running, 'scrobble')

for (const { name, describeStore, open } of stores) {
  describeStore(`scrobbles through the server on ${name}`, () => {
    it('logs each source once across two processes, ignores the rest, and never logs the token', async () => {
      try {
        const env = { MOVIE_LOG_STORE: await open(), MOVIE_LOG_TOKEN: TOKEN, ...PARIS }
        const [first, second] = [await start(env), await start(env)]
        const logged: Movie[] = []
        for (const [source, delivery] of Object.entries(FINISHED)) {
          const created = await deliver(first.url, source, delivery())
          expect(created.status, source).toBe(201)
          const movie = (await created.json()) as Movie
          expect(movie.screenedDate.slice(0, 19), source).toBe('2024-06-01T20:30:00')
          logged.push(movie)
          // The media server retries, and its retry reaches the other process: logged once.
          const retried = await deliver(second.url, source, delivery())
          expect(retried.status, source).toBe(200)
          expect(await retried.json()).toEqual(movie)
        }
        const ignored = [
          deliver(first.url, 'plex', plexDelivery(fixture('plex-movie-pause'))),
          deliver(second.url, 'jellyfin', jellyfinDelivery(fixture('jellyfin-episode-stop'))),
          deliver(first.url, 'emby', embyDelivery(fixture('emby-movie-pause'))),
        ]
        expect((await Promise.all(ignored)).map((response) => response.status)).toEqual([
          204, 204, 204,
        ])
        const noImdb = await deliver(
          second.url,
          'emby',
          embyDelivery(fixture('emby-movie-no-imdb')),
        )
        expect(noImdb.status).toBe(422)
        expect(
          (await deliver(first.url, 'plex', FINISHED.plex?.() as Delivery, 'wrong')).status,
        ).toBe(401)
        expect(await list(first.url)).toEqual(logged)
        expect(await list(second.url)).toEqual(logged)
        // Each request has its line, the token's value in none.
        await first.waitForLine(/^POST \/movies\/scrobble\/plex\?token=\*\*\* 401 /)
        const lines = [...first.lines, ...second.lines]
        expect(lines.filter((line) => line.startsWith('POST /movies/scrobble/'))).toHaveLength(13)
        expect(lines.join('\n')).not.toContain(TOKEN)
        expect(lines.join('\n')).not.toContain('wrong')
      } finally {
        await cleanup()
      }
    })
  })
}

describe('scrobbles through the server', () => {
  it("logs Plex's payload and leaves a thumb past the body limit unsent, the server holding none of it", async () => {
    const store = `sqlite://${join(tempFolder('movie-log-scrobble-'), 'movies.sqlite')}`
    const server = await start({ MOVIE_LOG_STORE: store, ...PARIS })
    // 200 MiB: five times the memory this whole server uses; the body limit is 1 MiB.
    const delivery = plexDelivery(fixture('plex-movie-scrobble'), 200 * 1024 * 1024)
    const response = await deliver(server.url, 'plex', delivery)
    expect(response.status).toBe(201)
    expect(response.headers.get('connection')).toBe('close')
    expect(await response.json()).toMatchObject({ title: 'The Shawshank Redemption' })
    // What the socket's buffers took before the server closed it, and no more.
    console.log(`thumb bytes sent: ${delivery.pulled?.()}`)
    expect(delivery.pulled?.()).toBeLessThan(20 * 1024 * 1024)
    expect(await list(server.url)).toHaveLength(1)
    // The server goes on answering on new connections.
    expect((await deliver(server.url, 'plex', FINISHED.plex?.() as Delivery)).status).toBe(200)
  })

  it("puts two people's scrobbles from one Plex server in their own diaries, by the URLs `user add` printed", async () => {
    const folder = tempFolder('movie-log-scrobble-')
    const users = join(folder, 'users')
    const port = await freePort()
    const base = `http://127.0.0.1:${port}/movies`
    const [alice, bob] = [addUser(users, 'alice', base), addUser(users, 'bob', base)]
    expect(alice.plex).toBe(`${base}/scrobble/plex?token=${alice.token}`)
    expect(alice.urls).toEqual(
      ['plex', 'jellyfin', 'emby', 'kodi', 'generic'].map(
        (source) => `${base}/scrobble/${source}?token=${alice.token}`,
      ),
    )
    // `user webhooks` lists everyone's, their token left for them to fill in.
    const listed = cli(['user', 'webhooks', '--users', users, '--url', base])
    expect(listed.status).toBe(0)
    expect(listed.stdout).toContain(`bob:\n  plex      ${base}/scrobble/plex?token=<bob's token>\n`)
    expect(listed.stdout).not.toContain(bob.token)

    const server = await start(
      {
        MOVIE_LOG_STORE: `sqlite://${join(folder, 'movies.sqlite')}`,
        MOVIE_LOG_USERS: users,
        ...PARIS,
      },
      port,
    )
    const send = (url: string, payload: unknown) => fetch(url, requestInit(plexDelivery(payload)))
    const sent = [
      await send(alice.plex, fixture('plex-movie-scrobble')),
      await send(bob.plex, fixture('plex-movie-scrobble-shared-user')),
    ]
    // Plex sends Bob's watch to Alice's webhook too, as she owns the server: not hers to log.
    sent.push(await send(alice.plex, fixture('plex-movie-scrobble-shared-user-to-owner')))
    expect(sent.map((response) => response.status)).toEqual([201, 201, 204])
    const diaryOf = async (token: string) =>
      (
        (await (
          await fetch(server.url, { headers: { authorization: `Bearer ${token}` } })
        ).json()) as Movie[]
      ).map((movie) => `${movie.title} ${movie.screenedDate}`)
    expect(await diaryOf(alice.token)).toEqual(['The Shawshank Redemption 2024-06-01T20:30:00.000'])
    // Bob's Heat: lastViewedAt 2024-06-02 18:30 UTC.
    expect(await diaryOf(bob.token)).toEqual(['Heat 2024-06-02T20:30:00.000'])
    const log = server.lines.join('\n')
    expect(log).toContain('POST /movies/scrobble/plex?token=*** 201')
    expect(log).not.toContain(alice.token)
    expect(log).not.toContain(bob.token)
  })

  it('writes scrobbles in the zone its start line names: MOVIE_LOG_TIME_ZONE, else TZ', async () => {
    // Plex's fixture: lastViewedAt 2024-06-01 18:30 UTC, 06:30 the next day in Auckland (NZST).
    const cases = [
      [{ TZ: 'Pacific/Auckland', MOVIE_LOG_TIME_ZONE: '' }, '2024-06-02T06:30:00.000'],
      [{ TZ: 'Pacific/Auckland', ...PARIS }, '2024-06-01T20:30:00.000'],
    ] as const
    const lines = []
    for (const [zone, screenedDate] of cases) {
      const server = await start({ MOVIE_LOG_STORE: 'memory://', ...zone })
      const response = await deliver(server.url, 'plex', FINISHED.plex?.() as Delivery)
      expect(((await response.json()) as Movie).screenedDate).toBe(screenedDate)
      lines.push(server.lines.find((line) => line.includes('listening on')))
    }
    expect(lines[0]).toContain(
      "; scrobbles in Pacific/Auckland, the process's zone: set MOVIE_LOG_TIME_ZONE or TZ to change it)",
    )
    expect(lines[1]).toContain('; scrobbles in Europe/Paris)')
  })

  it('refuses to start on a MOVIE_LOG_TIME_ZONE that is not an IANA zone, naming it', () => {
    expect(() => configFromEnv({ MOVIE_LOG_TIME_ZONE: 'Paris' })).toThrow(ConfigError)
    expect(() => configFromEnv({ MOVIE_LOG_TIME_ZONE: 'Paris' })).toThrow(
      "MOVIE_LOG_TIME_ZONE: 'Paris' is not a time zone this runtime knows: give an IANA name such as Europe/Paris",
    )
    expect(configFromEnv({ MOVIE_LOG_TIME_ZONE: 'Asia/Tokyo' }).timeZone).toBe('Asia/Tokyo')
    expect(configFromEnv({}).timeZone).toBeUndefined()
  })
})
