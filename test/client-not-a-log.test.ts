import type { Server } from 'node:http'
import { createMovieLogClient, MovieLogHttpError } from 'movie-log/client'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { closeServer, startExampleServer } from './_through-client'

// Issue 55 item 3: given the URL the server prints (its root), the client listed the root's
// JSON as movies, threw a TypeError for a whole list, and read a route not the log's as a
// missing movie.
const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map(closeServer))
})

async function serve() {
  const { url, server } = await startExampleServer(new Map())
  servers.push(server)
  return { log: url, origin: new URL(url).origin }
}

/** What `call` rejects with: a MovieLogHttpError naming `url`, or the test fails. */
async function refusal(call: Promise<unknown>, url: string): Promise<MovieLogHttpError> {
  const error = await call.then(
    (value) => new Error(`resolved with ${JSON.stringify(value)}`),
    (error: unknown) => error,
  )
  expect(error).toBeInstanceOf(MovieLogHttpError)
  expect((error as Error).message).toContain(`${url} is not a movie log`)
  return error as MovieLogHttpError
}

describe('movie-log/client given a URL that is not a log', () => {
  it('refuses every call on the server’s root, naming it and the log its root points at', async () => {
    const { log, origin } = await serve()
    const root = createMovieLogClient(`${origin}/`, { retries: 0 })
    const calls: [string, () => Promise<unknown>][] = [
      ['a page', () => root.listMovies({ limit: 5 })],
      ['the whole list', () => root.listMovies()],
      ['a movie', () => root.getMovie('01900000-0000-7000-8000-000000000001')],
      ['an add', () => root.addMovie(aMovie())],
      ['an edit', () => root.updateMovie('some-id', { title: 'x' })],
      ['a delete', () => root.deleteMovie('some-id')],
      ['the statistics', () => root.stats()],
    ]
    for (const [what, call] of calls) {
      const error = await refusal(call(), origin)
      expect(error.message, what).toContain(`its server's log is at ${log}`)
    }
    // Nothing was written: the log itself is empty.
    expect((await createMovieLogClient(log).listMovies()).movies).toEqual([])
  })

  it('refuses a typo of the log’s path, and still reads the log’s own 404 as a missing movie', async () => {
    const { log } = await serve()
    const typo = `${log.slice(0, -1)}`
    const mistyped = createMovieLogClient(typo, { retries: 0 })
    await refusal(mistyped.getMovie('some-id'), typo)
    await refusal(mistyped.deleteMovie('some-id'), typo)
    await refusal(mistyped.listMovies(), typo)
    const client = createMovieLogClient(log)
    expect(await client.getMovie('some-id')).toBeUndefined()
    expect(await client.deleteMovie('some-id')).toBe(false)
  })
})
