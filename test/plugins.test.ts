import { execFile, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import {
  createMovieLog,
  createMovieLogs,
  type Movie,
  registerPlugin,
  registerPluginsFrom,
} from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import plugin from '../examples/plugin'
import { CLI, startServerProcess, stop } from './_processes'
import { tempFolders } from './_temp'

// The plug-in registry through examples/plugin.ts: a store URL, a webhook and an import format,
// in an app (registerPlugin) and in the command (--plugin).
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BASE = 'http://localhost/movies'
const run = promisify(execFile)
const work = tempFolders()('movie-log-plugins-')

// Taken out again after: the registry is the process's, and other files share this worker.
let unregister: () => void
beforeAll(() => {
  unregister = registerPlugin(plugin)
})
afterAll(() => unregister())

const heat = { imdb: 'tt0113277', title: 'Heat', year: 1995 }
const mpvHook = (fields: Record<string, unknown>) =>
  new Request(`${BASE}/scrobble/mpv`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fields),
  })

describe('a plug-in registered by an app', () => {
  it('opens its store URLs, as createMovieLog and createMovieLogs take them', async () => {
    const log = createMovieLog('scratch://demo')
    await log.addMovie({
      title: 'Heat',
      screenedDate: '2024-05-01T20:30:00.000',
      releaseYear: 1995,
      imdbLink: 'https://www.imdb.com/title/tt0113277/',
    })
    expect((await log.listMovies()).movies.map((movie) => movie.title)).toEqual(['Heat'])
    await log.close()
    const logs = createMovieLogs('SCRATCH://other')
    expect((await logs.of('alice').listMovies()).movies).toEqual([])
    await logs.close()
  })

  it('logs what its scrobble source reads, once per watch, under the source name', async () => {
    const log = createMovieLog()
    const handler = toWebHandler(log, { timeZone: 'UTC' })
    const finishedAt = Date.parse('2024-05-01T20:30:00Z')
    const hook = { event: 'end-file', reason: 'eof', finishedAt, ...heat }
    const first = await handler(mpvHook(hook))
    expect(first.status).toBe(201)
    expect(await first.json()).toMatchObject({
      title: 'Heat',
      releaseYear: 1995,
      screenedDate: '2024-05-01T20:30:00.000',
      notes: 'Scrobbled from mpv',
    })
    expect((await handler(mpvHook(hook))).status).toBe(200)
    expect((await handler(mpvHook({ ...hook, reason: 'quit' }))).status).toBe(204)
    const incomplete = await handler(mpvHook({ ...hook, imdb: 'none' }))
    expect(incomplete.status).toBe(422)
    expect((await incomplete.json()).errors).toEqual([
      { pointer: '/imdb', detail: 'is not an IMDb id' },
    ])
    expect((await log.listMovies()).movies).toHaveLength(1)
  })

  it("answers as the contract says around it: the source's label, the names it adds to a 404", async () => {
    const handler = toWebHandler(createMovieLog())
    const form = await handler(
      new Request(`${BASE}/scrobble/mpv`, { method: 'POST', body: new FormData() }),
    )
    expect(form.status).toBe(400)
    expect((await form.json()).detail).toBe(
      'This is not how mpv sends a webhook: send application/json.',
    )
    const unknown = await handler(new Request(`${BASE}/scrobble/vlc`, { method: 'POST' }))
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).detail).toBe(
      'No such scrobble source: use mpv, plex, jellyfin, emby, kodi or generic.',
    )
  })

  it('refuses a part without a name or a function, naming the plug-in, and adds none of it', async () => {
    const read = () => ({ kind: 'ignored' as const })
    expect(() =>
      registerPlugin({
        name: 'half',
        scrobbleSources: [{ name: 'half-good', read }],
        importFormats: [{ name: 'no-read' } as never],
      }),
    ).toThrow(
      new TypeError("Plug-in 'half': the import format 'no-read' has no function 'detects'."),
    )
    expect(() => registerPlugin({ name: 'bad', scrobbleSources: [{ name: 'a/b', read }] })).toThrow(
      /Plug-in 'bad': a scrobble source's name must be letters/,
    )
    expect(() => registerPlugin({ name: 'typo', scrobbleSource: [] } as never)).toThrow(
      "Plug-in 'typo': 'scrobbleSource' is no plug-in point",
    )
    const handler = toWebHandler(createMovieLog())
    const half = await handler(new Request(`${BASE}/scrobble/half-good`, { method: 'POST' }))
    expect(half.status).toBe(404)
  })

  it('lets an app replace a shipped scrobble source under its name, and take it out', async () => {
    const unregisterOwn = registerPlugin({
      name: 'own-generic',
      scrobbleSources: [{ name: 'generic', read: () => ({ kind: 'ignored' }) }],
    })
    const handler = toWebHandler(createMovieLog())
    const send = () =>
      handler(
        new Request(`${BASE}/scrobble/generic`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }),
      )
    expect((await send()).status).toBe(204)
    unregisterOwn()
    // The shipped one again: an empty body is no scrobble of its.
    expect((await send()).status).toBe(400)
  })
})

describe('a plug-in given to the command: movie-log import --plugin', () => {
  // The example is TypeScript: tsx loads it, as an app's own would be run.
  const movieLog = (args: string[]) => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    })
    return { code: result.status, stdout: result.stdout, stderr: result.stderr }
  }

  it("reads the plug-in's CSV format, told by its header, refusing a row by its own column", () => {
    const file = join(work, 'club.csv')
    writeFileSync(
      file,
      'Film,Year,IMDb,Seen\r\nHeat,1995,tt0113277,2024-05-01\r\nAlien,1979,tt0078748,May\r\n',
    )
    const store = `sqlite://${join(work, 'club.sqlite')}`
    const imported = movieLog([
      'import',
      file,
      '--store',
      store,
      '--plugin',
      './examples/plugin.ts',
    ])
    expect(imported.stderr).toBe('line 3: Seen: must be a day, YYYY-MM-DD\n')
    expect(JSON.parse(imported.stdout)).toEqual({ added: 1, skipped: 0, refused: 1 })
    const exported = movieLog(['export', '--store', store])
    expect(JSON.parse(exported.stdout) as Movie).toMatchObject({
      title: 'Heat',
      screenedDate: '2024-05-01T20:00:00.000',
    })
  })

  it('refuses a format no plug-in gives, and a header not of the format named', () => {
    const file = join(work, 'other.csv')
    writeFileSync(file, 'Title,Year\r\nHeat,1995\r\n')
    const unnamed = movieLog(['import', file, '--store', 'memory://', '--format', 'club'])
    expect(unnamed.stderr).toMatch(
      /--format: 'club' is not one of auto, ndjson, csv, imdb, letterboxd, trakt, netflix\n/,
    )
    const wrong = movieLog([
      'import',
      file,
      '--store',
      'memory://',
      '--format',
      'club',
      '--plugin',
      './examples/plugin.ts',
    ])
    expect(wrong.stderr).toMatch(
      /line 1: not a film club's list \(it needs the columns Film, Year, IMDb and Seen\)/,
    )
  })
})

describe('a plug-in given to the server: MOVIE_LOG_PLUGINS', () => {
  it('serves a log on its store URL and logs what its scrobble source reads', async () => {
    const server = await startServerProcess({
      NODE_OPTIONS: '--import tsx',
      MOVIE_LOG_PLUGINS: './examples/plugin.ts',
      MOVIE_LOG_STORE: 'scratch://served',
    })
    try {
      const hook = { event: 'end-file', reason: 'eof', finishedAt: Date.now(), ...heat }
      const scrobbled = await fetch(`${server.url}/scrobble/mpv`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(hook),
      })
      expect(scrobbled.status).toBe(201)
      const listed = (await (await fetch(server.url)).json()) as Movie[]
      expect(listed.map((movie) => movie.notes)).toEqual(['Scrobbled from mpv'])
    } finally {
      await stop(server)
    }
  })
})

describe('a plug-in class given to the server: built by its tsyringe container', () => {
  it('injects the plug-in’s dependencies and logs what its source reads (examples/tsyringe-plugin.ts)', async () => {
    const server = await startServerProcess({
      NODE_OPTIONS: '--import tsx',
      MOVIE_LOG_PLUGINS: './examples/tsyringe-plugin.ts',
      MOVIE_LOG_STORE: 'memory://',
      MOVIE_LOG_TIME_ZONE: 'UTC',
    })
    try {
      const before = Date.now()
      const scrobbled = await fetch(`${server.url}/scrobble/mpv`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'end-file', ...heat }),
      })
      const after = Date.now()
      expect(scrobbled.status).toBe(201)
      // The screening's time is the injected clock's: the machine's, while the hook was sent.
      const movie = (await scrobbled.json()) as Movie
      const screened = Date.parse(`${movie.screenedDate}Z`)
      expect(screened).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
      expect(screened).toBeLessThanOrEqual(after)
    } finally {
      await stop(server)
    }
  })
})

describe('plug-ins from an app’s tsyringe container: registerPluginsFrom', () => {
  it('adds an @injectable() plug-in with its dependencies injected (examples/tsyringe-app.ts)', async () => {
    // A process of its own: the example loads reflect-metadata, which patches its Reflect.
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'examples/tsyringe-app.ts'],
      {
        cwd: ROOT,
      },
    )
    const line = stdout.trim()
    const status = line.slice(0, line.indexOf(' '))
    const body = line.slice(line.indexOf(' ') + 1)
    expect(status).toBe('201')
    // The screened date is the injected clock's, so the container built the plug-in.
    expect(JSON.parse(body)).toMatchObject({
      title: 'Heat',
      screenedDate: '2024-05-01T18:30:00.000',
      imdbLink: 'https://www.imdb.com/title/tt0113277/',
    })
  })

  it('does nothing for a container holding no plug-in', () => {
    const container = { isRegistered: () => false, resolveAll: () => [] as never[] }
    expect(() => registerPluginsFrom(container)).not.toThrow()
  })
})
