// Issue 36: the default store needs no native build. `npm install movie-log h3 listhen` (the
// packed tarball) in a fresh app with no compiler (CC, CXX and node-gyp all /bin/false), then
// `npx movie-log serve` on the default store, sqlite://./data/movies.sqlite: on Node 24 on
// node:sqlite, silently; on Node 22 on node:sqlite too, with Node's one ExperimentalWarning.
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, inject, it } from 'vitest'
import { envOn, nodeBinary } from '../../.ci/node-lines'
import { freePort } from '../_ports'
import { watch } from '../_processes'
import { describeUnless } from '../_services'
import { tempFolders } from '../_temp'

const tempFolder = tempFolders()
let tarball = ''
beforeAll(() => {
  // Packed once for the run, by test/_global-setup.ts.
  tarball = inject('tarball')
})

const MOVIE = {
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
}

for (const [line, warning] of [
  ['24', undefined],
  ['22', /ExperimentalWarning: SQLite is an experimental feature/],
] as const) {
  const binary = nodeBinary(line)
  describeUnless(
    binary
      ? undefined
      : `no Node ${line} binary (node --import tsx .ci/node-lines.ts fetch ${line})`,
    `Node ${line}`,
    `the default store on Node ${line}, installed with no compiler`,
    () => {
      it('installs movie-log h3 listhen without building anything, and serves the default store', async () => {
        const env = {
          ...envOn(binary as string),
          CC: '/bin/false',
          CXX: '/bin/false',
          npm_config_node_gyp: '/bin/false',
        }
        const app = join(tempFolder('consumer-app-'), 'app')
        mkdirSync(app)
        writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }))
        execFileSync(
          'npm',
          ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, 'h3', 'listhen'],
          { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] },
        )
        expect(existsSync(join(app, 'node_modules', 'sqlite3'))).toBe(false)

        const port = await freePort()
        const base = `http://127.0.0.1:${port}/movies`
        const server = watch(
          spawn('npx', ['movie-log', 'serve'], {
            cwd: app,
            env: { ...env, PORT: String(port), HOST: '127.0.0.1', MOVIE_LOG_STORE: '' },
            // A group of its own: npx passes no signal on, so the group is what gets stopped.
            detached: true,
          }),
        )
        try {
          await server.waitForLine(/listening on /)
          const created = await fetch(base, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(MOVIE),
          })
          expect(created.status).toBe(201)
          const added = await created.json()
          expect(await (await fetch(base)).json()).toEqual([added])
          expect(existsSync(join(app, 'data', 'movies.sqlite'))).toBe(true)
        } finally {
          // A server that never started has nothing left to stop.
          if (server.process.exitCode === null && server.process.signalCode === null) {
            process.kill(-(server.process.pid as number), 'SIGTERM')
            await server.exited
          }
        }
        // The server itself stopped too, not only npx.
        await expect(fetch(base)).rejects.toThrow()
        const warned = server.lines.filter((each) => /Warning/.test(each))
        if (warning) {
          expect(warned).toHaveLength(1)
          expect(warned[0]).toMatch(warning)
        } else expect(warned).toEqual([])
      }, 300_000)
    },
  )
}
