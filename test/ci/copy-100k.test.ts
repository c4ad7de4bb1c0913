import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import {
  type ClosableMovieLog,
  createMovieLog,
  type ImportRow,
  importMovies,
  type MovieLog,
  registerStoreOpener,
} from 'movie-log'
import sqlite3 from 'sqlite3'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { verifyCopy } from '../../src/cli/verify'
import { sqliteDriverOver } from '../../src/drivers/sqlite/driver'
import { freePort } from '../_ports'
import { createPrivatePostgres, type PrivatePostgres } from '../_postgres'
import { CLI, stop, watch } from '../_processes'
import { describeUnless, missing } from '../_services'
import { tempFolders } from '../_temp'

// `movie-log copy` of 100k movies from SQLite to PostgreSQL: whole, and killed halfway then run
// again; and the server's HTTP export of the same 100k. Minutes of work: under CI=true only. Figures go to the log (and the README).
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const COUNT = 100_000
const tempFolder = tempFolders()
// Made in beforeAll, not at load: a skipped file runs no afterAll to remove them.
let work = ''
let source = ''
// Ids in a known order, so the test can tell when the copy passed the middle.
const idOf = (n: number) => `01900000-0000-7000-8000-${n.toString(16).padStart(12, '0')}`
// The copy and the server run with V8's heap capped: one that held the log (about 500 MiB for
// 100k) would die of it, whatever the machine's load does to when the collector runs.
const HEAP_MIB = 96
// Each process's own peak (_max-rss.mjs). Until 2026-11-28 the peak read was Linux's maxRSS,
// which a child inherits from the runner that spawned it: 254 to 321 MiB in CI, where the
// processes themselves peak near 130.
const MAX_RSS_MIB = 256
/** Node's arguments for `movie-log <args>` with the heap capped and the peak RSS recorded. */
const cli = (...args: string[]) => [
  `--max-old-space-size=${HEAP_MIB}`,
  '--import',
  './test/_max-rss.mjs',
  CLI,
  ...args,
]

const reason = missing('CI') ?? missing('POSTGRES_URL')
describeUnless(
  reason,
  'CI=true and POSTGRES_URL',
  'copy of 100k movies, SQLite to PostgreSQL',
  () => {
    const databases: PrivatePostgres[] = []
    const opened: ClosableMovieLog[] = []
    const open = async (url: string): Promise<MovieLog> => {
      const log = createMovieLog(url)
      opened.push(log)
      return log
    }

    beforeAll(async () => {
      work = tempFolder('movie-log-copy-100k-')
      source = `sqlite://${join(work, 'source.sqlite')}`
      // Seeding only: a log written without waiting for the disk (the copy reads it as any log).
      const db = new sqlite3.Database(source.slice('sqlite://'.length))
      await new Promise((resolve, reject) =>
        db.exec('PRAGMA synchronous = OFF', (error) => (error ? reject(error) : resolve(null))),
      )
      registerStoreOpener({
        schemes: ['test-seed-sqlite'],
        remote: true,
        open: () => sqliteDriverOver(db, { namespace: 'movie-log' }),
      })
      const seeding = createMovieLog('test-seed-sqlite://')
      function* rows(): Generator<ImportRow> {
        for (let n = 0; n < COUNT; n++) {
          const movie = {
            id: idOf(n),
            title: `Movie ${n}, "take ${n % 7}"`,
            screenedDate: `20${String(10 + (n % 15))}-0${1 + (n % 9)}-1${n % 10}T20:30:00.000`,
            releaseYear: 1900 + (n % 120),
            imdbLink: `https://www.imdb.com/title/tt${String(n).padStart(7, '0')}/`,
            notes: n % 3 === 0 ? '' : `Seen with friend number ${n}.\nTwice.`,
          }
          yield { line: n + 1, movie }
        }
      }
      const report = await importMovies(seeding, rows())
      await new Promise((resolve) => db.close(resolve))
      expect(report).toEqual({ added: COUNT, skipped: 0, refused: [] })
    }, 600_000)

    afterAll(async () => {
      await Promise.allSettled(opened.map((log) => log.close()))
      await Promise.allSettled(databases.map((database) => database.drop()))
    })

    function copy(to: string) {
      const rssFile = join(work, `rss-${Date.now()}`)
      const child = spawn(process.execPath, cli('copy', source, to), {
        cwd: ROOT,
        env: { ...process.env, MAX_RSS_FILE: rssFile },
        detached: true,
      })
      let stdout = ''
      let stderr = ''
      child.stdout.on('data', (chunk) => {
        stdout += chunk
      })
      child.stderr.on('data', (chunk) => {
        stderr += chunk
      })
      const started = performance.now()
      const exited = new Promise<{ code: number | null; seconds: number; rssMiB: number }>(
        (resolve) =>
          // 'close', not 'exit': by then stderr has been read to its end.
          child.on('close', (code) => {
            const seconds = (performance.now() - started) / 1000
            let rssMiB = Number.NaN
            try {
              rssMiB = Number(readFileSync(rssFile, 'utf8')) / 1024
            } catch {} // killed: no figure
            resolve({ code, seconds, rssMiB })
          }),
      )
      return { child, exited, stdout: () => stdout, stderr: () => stderr }
    }

    async function expectIdentical(to: string) {
      const result = await verifyCopy(await open(source), await open(to))
      expect(result).toEqual({ source: COUNT, matching: COUNT, missing: 0, different: 0, extra: 0 })
    }

    it('copies every movie, verified, in bounded memory', async () => {
      const database = await createPrivatePostgres('copy')
      databases.push(database)
      const run = copy(database.url)
      const { code, seconds, rssMiB } = await run.exited
      console.log(
        `copy of ${COUNT} movies: ${seconds.toFixed(1)} s, peak RSS ${rssMiB.toFixed(0)} MiB`,
      )
      expect(code, run.stderr()).toBe(0)
      expect(JSON.parse(run.stdout())).toMatchObject({ copied: COUNT, verified: true, extra: 0 })
      // A copy that held the log would grow with it; pages keep it near Node's own baseline.
      expect(rssMiB).toBeLessThan(MAX_RSS_MIB)
      await expectIdentical(database.url)
    }, 900_000)

    it('serves the 100k as NDJSON and CSV over HTTP with the server in bounded memory', async () => {
      const port = await freePort()
      const rssFile = join(work, 'rss-server')
      const server = watch(
        spawn(process.execPath, cli('serve'), {
          cwd: ROOT,
          env: {
            ...process.env,
            PORT: String(port),
            MOVIE_LOG_STORE: source,
            MAX_RSS_FILE: rssFile,
          },
        }),
      )
      try {
        await server.waitForLine(/listening on /)
        for (const accept of ['application/x-ndjson', 'text/csv']) {
          const started = performance.now()
          const response = await fetch(`http://127.0.0.1:${port}/movies`, { headers: { accept } })
          expect(response.headers.get('content-type')).toMatch(accept)
          // Counted chunk by chunk: the test holds no more of the body than the server does.
          let lines = 0
          const decoder = new TextDecoder()
          for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
            lines += decoder.decode(chunk, { stream: true }).split('\n').length - 1
          }
          const seconds = ((performance.now() - started) / 1000).toFixed(1)
          console.log(`GET /movies as ${accept}: ${lines} lines in ${seconds} s`)
          // NDJSON: a line a movie; CSV: the header too, and the second line of each note with one.
          expect(lines).toBe(
            accept === 'text/csv' ? COUNT + 1 + (COUNT - Math.ceil(COUNT / 3)) : COUNT,
          )
        }
      } finally {
        expect(await stop(server, 'SIGTERM')).toBe(0)
      }
      const rssMiB = Number(readFileSync(rssFile, 'utf8')) / 1024
      console.log(`server peak RSS while exporting 100k twice: ${rssMiB.toFixed(0)} MiB`)
      expect(rssMiB).toBeLessThan(MAX_RSS_MIB)
    }, 900_000)

    it('ends with identical logs when killed halfway (SIGKILL) and run again', async () => {
      const database = await createPrivatePostgres('resume')
      databases.push(database)
      const target = await open(database.url)
      const first = copy(database.url)
      // Watched until the middle is copied or the copy ends: a copy that fails before the
      // middle fails the test with what it printed, where a poll alone would wait it out.
      let ended: string | undefined
      void first.exited.then(({ code }) => {
        ended = `the copy ended (exit code ${code}) before movie ${COUNT / 2}:\n${first.stderr()}`
      })
      const deadline = performance.now() + 600_000
      try {
        while (!(await target.getMovie(idOf(COUNT / 2)))) {
          if (ended) throw new Error(ended)
          if (performance.now() > deadline) {
            throw new Error(
              `movie ${COUNT / 2} not copied in 600 s; the copy printed:\n${first.stderr()}`,
            )
          }
          await sleep(200)
        }
      } finally {
        // Stopped here in every case: halfway as the test means to, or a copy left hanging.
        if (first.child.exitCode === null && first.child.signalCode === null) {
          process.kill(-(first.child.pid as number), 'SIGKILL')
        }
      }
      expect((await first.exited).code).toBeNull()
      expect(await target.getMovie(idOf(COUNT - 1))).toBeUndefined() // killed before the end

      const again = copy(database.url)
      const { code, seconds, rssMiB } = await again.exited
      expect(code, again.stderr()).toBe(0)
      const summary = JSON.parse(again.stdout())
      console.log(
        `copy run again after SIGKILL: ${seconds.toFixed(1)} s, peak RSS ${rssMiB.toFixed(0)} MiB, ${JSON.stringify(summary)}`,
      )
      expect(rssMiB).toBeLessThan(MAX_RSS_MIB)
      expect(summary.copied + summary.skipped).toBe(COUNT)
      expect(summary.skipped).toBeGreaterThanOrEqual(COUNT / 2)
      expect(summary).toMatchObject({ refused: 0, verified: true, matching: COUNT, extra: 0 })
      await expectIdentical(database.url)
    }, 900_000)
  },
)
