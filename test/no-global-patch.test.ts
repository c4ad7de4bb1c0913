import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempFolders } from './_temp'

// movie-log leaves the app's process as it found it: no `Reflect` metadata polyfill (which a DI
// container loaded for its registry once installed on the first store URL), nothing added to
// the globals. Checked in a fresh Node process on the built package, as an app loads it.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const work = tempFolders()('movie-log-globals-')

const SCRIPT = `
const globalsBefore = Object.getOwnPropertyNames(globalThis)
const reflectBefore = Object.getOwnPropertyNames(Reflect)
const { createMovieLog, createMovieLogs, registerPlugin } = await import('movie-log')
const { toWebHandler } = await import('movie-log/web')
const movie = { title: 'Heat', screenedDate: '2024-05-01T20:30:00.000', releaseYear: 1995, imdbLink: 'https://www.imdb.com/title/tt0113277/' }
registerPlugin({ name: 'noop', scrobbleSources: [{ name: 'noop', read: () => ({ kind: 'ignored' }) }] })
const memory = createMovieLog('memory://')
await memory.addMovie(movie)
const sqlite = createMovieLogs(process.env.STORE)
await sqlite.of('alice').addMovie(movie)
const handler = toWebHandler(sqlite, { owner: () => 'alice' })
const json = { 'content-type': 'application/json' }
const answers = [
  await handler(new Request('http://x/movies', { method: 'POST', headers: json, body: JSON.stringify(movie) })),
  await handler(new Request('http://x/movies')),
  await handler(new Request('http://x/movies/scrobble/generic', { method: 'POST', headers: json, body: JSON.stringify({ imdbId: 'tt0113277', title: 'Heat', releaseYear: 1995, watchedAt: '2024-05-01T20:30:00Z' }) })),
  await handler(new Request('http://x/movies/scrobble/noop', { method: 'POST', headers: json, body: '{}' })),
].map((answer) => answer.status)
await memory.close()
await sqlite.close()
const added = (before, now) => now.filter((name) => !before.includes(name))
process.stdout.write(JSON.stringify({
  answers,
  getMetadata: typeof Reflect.getMetadata,
  reflect: added(reflectBefore, Object.getOwnPropertyNames(Reflect)),
  globals: added(globalsBefore, Object.getOwnPropertyNames(globalThis)),
}))
`

describe('the user’s process', () => {
  it('has no Reflect metadata and no new global after logs, store URLs and requests', () => {
    const store = `sqlite://${join(work, 'movies.sqlite')}`
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, STORE: store },
      timeout: 60_000,
    })
    expect(result.stderr).toBe('')
    expect(JSON.parse(result.stdout)).toEqual({
      answers: [201, 200, 201, 204],
      getMetadata: 'undefined',
      reflect: [],
      globals: [],
    })
  })
})
