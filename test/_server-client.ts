import type { Movie } from 'movie-log'
import { afterEach } from 'vitest'
import { aMovie } from './_movies'
import { type Child, type ServerProcess, startServerProcess, stop } from './_processes'

/**
 * Children a test file starts (servers, private Redis), killed after each test, and a `start`
 * that runs the example server among them.
 */
export function childrenOfEachTest(): {
  running: Child[]
  start(env: Record<string, string>, port?: number): Promise<ServerProcess>
} {
  const running: Child[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((child) => stop(child, 'SIGKILL')))
  })
  return {
    running,
    start: async (env, port) => {
      const server = await startServerProcess(env, port)
      running.push(server)
      return server
    },
  }
}

/** POSTs a movie (a valid one unless given) as JSON. */
export const post = (url: string, body: unknown = aMovie()) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

/** Every movie the log at `url` lists. */
export const list = async (url: string) => (await (await fetch(url)).json()) as Movie[]
