// Issue 36: nothing lost. `kill -9` of `movie-log serve` on SQLite under 32 concurrent adds:
// every add answered 201 is stored, once, as answered; the same with two processes on one file,
// both killed. On each library: sqlite3 on this Node, node:sqlite on Node 24.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createMovieLog, type Movie } from 'movie-log'
import { expect, it } from 'vitest'
import { envOn, nodeBinary } from '../../.ci/node-lines'
import { aMovie } from '../_movies'
import { freePort } from '../_ports'
import { type Child, CLI, stop, watch } from '../_processes'
import { describeUnless } from '../_services'
import { tempFolders } from '../_temp'

const tempFolder = tempFolders()
const ROOT = join(CLI, '..', '..')

async function serve(binary: string, store: string): Promise<Child & { url: string }> {
  const port = await freePort()
  const child = watch(
    spawn(binary, [CLI, 'serve'], {
      cwd: ROOT,
      env: { ...envOn(binary), HOST: '127.0.0.1', PORT: String(port), MOVIE_LOG_STORE: store },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
  await child.waitForLine(/listening on /)
  return { ...child, url: `http://127.0.0.1:${port}/movies` }
}

/**
 * `connections` loops adding movies to the servers (taken in turn) until `stop` is called; each
 * movie's notes name it (`loop-n`). Answers: the movies answered 201, and every note sent.
 */
function addUntilStopped(urls: string[], connections: number) {
  const acknowledged: Movie[] = []
  const sent: string[] = []
  let stopped = false
  let onCount: (() => void) | undefined
  const loops = Array.from({ length: connections }, async (_, loop) => {
    const url = urls[loop % urls.length] as string
    for (let n = 0; !stopped; n++) {
      const notes = `${loop}-${n}`
      sent.push(notes)
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...aMovie(), notes }),
        })
        if (response.status !== 201) return
        acknowledged.push((await response.json()) as Movie)
        onCount?.()
      } catch {
        // The server was killed: this loop is done.
        return
      }
    }
  })
  return {
    acknowledged,
    sent,
    /** Resolves once `count` adds have been answered 201. */
    reached: (count: number) =>
      new Promise<void>((done) => {
        onCount = () => {
          if (acknowledged.length >= count) done()
        }
      }),
    finished: () => {
      stopped = true
      return Promise.all(loops)
    },
  }
}

const lines = [
  ['sqlite3', process.execPath],
  ['node:sqlite', nodeBinary('24')],
] as const

for (const [library, binary] of lines) {
  const client = library === 'sqlite3' ? 'sqlite3' : 'builtin'
  describeUnless(
    binary ? undefined : 'no Node 24 binary (node --import tsx .ci/node-lines.ts fetch 24)',
    'Node 24',
    `kill -9 under 32 concurrent adds, SQLite on ${library}`,
    () => {
      it.each([1, 2])(
        'keeps every add answered 201, once, with %i process(es) on one file',
        async (processes) => {
          const file = join(tempFolder('movie-log-kill-'), 'movies.sqlite')
          const store = `sqlite://${file}?client=${client}`
          const servers = []
          for (let at = 0; at < processes; at++) servers.push(await serve(binary as string, store))
          const adds = addUntilStopped(
            servers.map((server) => server.url),
            32,
          )
          await adds.reached(400)
          for (const server of servers) await stop(server, 'SIGKILL')
          await adds.finished()

          // Read back on this process's default library (the file is the same on either).
          const log = createMovieLog(`sqlite://${file}`)
          try {
            const { movies } = await log.listMovies({ limit: 100_000 })
            const stored = new Map(movies.map((movie) => [movie.notes, movie]))
            // Once each: no note stored twice, and nothing stored that was not sent.
            expect(stored.size).toBe(movies.length)
            expect(movies.filter((movie) => !adds.sent.includes(movie.notes))).toEqual([])
            // Every add answered 201, stored as answered.
            const lost = adds.acknowledged.filter(
              (movie) => JSON.stringify(stored.get(movie.notes)) !== JSON.stringify(movie),
            )
            expect(lost).toEqual([])
            expect(adds.acknowledged.length).toBeGreaterThanOrEqual(400)
            console.log(
              `kill -9, ${library}, ${processes} process(es): ${adds.acknowledged.length} answered 201, ${movies.length} stored, ${adds.sent.length} sent`,
            )
          } finally {
            await log.close()
          }
        },
        120_000,
      )
    },
  )
}
