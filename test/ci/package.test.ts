import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { envOn, NODE_LINES, nodeBinary } from '../../.ci/node-lines'
import { createOpenApiDocument } from '../../src/http/openapi/document'
import { freePort } from '../_ports'
import { createPrivatePostgres } from '../_postgres'
import { stop, watch } from '../_processes'
import { describeUnless, UNDER_CI } from '../_services'
import { tempFolders } from '../_temp'

// The packed tarball, installed into a fresh app, used the way users use it: on the machine's
// Node, and under CI=true on each line of NODE_LINES too (.ci/run fetches their binaries).
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const IMDB_FIXTURE = fileURLToPath(new URL('../fixtures/imdb-ratings.csv', import.meta.url))
// Made when the tests run: a file whose tests are all skipped runs no hook to remove it.
const tempFolder = tempFolders()
let work = ''
let tarball = ''

const run = (command: string, args: string[], cwd: string, env = process.env) =>
  execFileSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

const MOVIE = {
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
}

beforeAll(() => {
  work = tempFolder('consumer-app-')
  // Packed once for the run, by test/_global-setup.ts.
  tarball = inject('tarball')
})

/** A fresh app with the tarball installed by npm on the Node that `env` puts first on PATH. */
function installApp(name: string, env: NodeJS.ProcessEnv): string {
  const app = join(work, name)
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }))
  run(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      tarball,
      'keyv@5.6.0',
      'h3@2.0.8',
      'listhen@1.10.1',
      '@types/node@20',
      '@types/express@5',
    ],
    app,
    env,
  )
  return app
}

/**
 * What users run into at run time, in an app installed with the Node that `env` puts first on
 * PATH: `version` matches that Node's `process.version`. `more` adds checks on the same app.
 */
function describeUse(
  name: string,
  env: NodeJS.ProcessEnv,
  version: RegExp,
  more?: (app: () => string) => void,
): void {
  describe(`the packed package, on ${name}`, () => {
    let installed = ''
    const app = () => installed
    beforeAll(() => {
      installed = installApp(name.replace(/\W+/g, '-'), env)
    }, 240_000)

    it('imports every entry from ESM and serves a request through each adapter', () => {
      writeFileSync(
        join(app(), 'esm.mjs'),
        `import { createServer } from 'node:http'
import { createMovieLog, MovieValidationError } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { toH3Handler } from 'movie-log/h3'
import { toNodeHandler } from 'movie-log/node'
import { H3 } from 'h3'
import document from 'movie-log/openapi.json' with { type: 'json' }
const log = createMovieLog()
const web = toWebHandler(log)
const post = await web(new Request('http://app/movies', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(JSON.stringify(MOVIE))} }))
const app = new H3().mount('/movies', toH3Handler(log))
const list = await app.fetch(new Request('http://app/movies'))
const server = createServer(toNodeHandler(log)).listen(0, '127.0.0.1')
await new Promise((resolve) => server.once('listening', resolve))
const node = await fetch('http://127.0.0.1:' + server.address().port + '/movies')
server.close()
const invalid = await log.addMovie({}).catch((error) => error)
console.log(JSON.stringify({ version: process.version, post: post.status, list: list.status, listed: (await list.json()).length, node: (await node.json()).length, validation: invalid instanceof MovieValidationError, openapi: document.openapi, paths: Object.keys(document.paths) }))
`,
      )
      expect(JSON.parse(run('node', ['esm.mjs'], app(), env))).toEqual({
        version: expect.stringMatching(version),
        post: 201,
        list: 200,
        listed: 1,
        node: 1,
        validation: true,
        openapi: '3.1.0',
        // The document the package ships is the one the sources make, path for path.
        paths: Object.keys((createOpenApiDocument('/movies') as { paths: object }).paths),
      })
    })

    it('loads every entry with require() from CommonJS, sharing one error class', () => {
      writeFileSync(
        join(app(), 'cjs.cjs'),
        `const core = require('movie-log')
const web = require('movie-log/web')
const h3 = require('movie-log/h3')
const node = require('movie-log/node')
const log = core.createMovieLog()
log.addMovie({ title: 1 }).catch((error) => {
  console.log(JSON.stringify({
    createMovieLog: typeof core.createMovieLog,
    toWebHandler: typeof web.toWebHandler,
    toH3Handler: typeof h3.toH3Handler,
    toNodeHandler: typeof node.toNodeHandler,
    validation: error instanceof core.MovieValidationError,
  }))
})
`,
      )
      const output = run('node', ['--no-warnings', 'cjs.cjs'], app(), env)
      expect(JSON.parse(output)).toEqual({
        createMovieLog: 'function',
        toWebHandler: 'function',
        toH3Handler: 'function',
        toNodeHandler: 'function',
        validation: true,
      })
    })

    it('runs movie-log serve from the bin, and stops on SIGTERM', async () => {
      const port = await freePort()
      const server = watch(
        spawn(join(app(), 'node_modules', '.bin', 'movie-log'), ['serve'], {
          cwd: app(),
          env: { ...env, PORT: String(port), HOST: '127.0.0.1', MOVIE_LOG_STORE: 'memory://' },
        }),
      )
      try {
        await server.waitForLine(/listening on /)
        const created = await fetch(`http://127.0.0.1:${port}/movies`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(MOVIE),
        })
        expect(created.status).toBe(201)
      } finally {
        expect(await stop(server, 'SIGTERM')).toBe(0)
      }
    })

    it('says which packages movie-log serve needs when listhen is not installed', () => {
      const installed = join(app(), 'node_modules', 'listhen')
      renameSync(installed, `${installed}-hidden`)
      try {
        const serve = spawnSync(join(app(), 'node_modules', '.bin', 'movie-log'), ['serve'], {
          cwd: app(),
          env: { ...env, MOVIE_LOG_STORE: 'memory://' },
          encoding: 'utf8',
        })
        expect([serve.status, serve.stderr.trim()]).toEqual([
          1,
          "movie-log: serve needs h3 and listhen installed beside movie-log, and 'listhen' is not: npm install h3 listhen",
        ])
      } finally {
        renameSync(`${installed}-hidden`, installed)
      }
    })

    it('exports, imports and copies through npx movie-log, with exit codes scripts rely on', () => {
      // memory:// keeps nothing between runs: each run checks one command, end to end.
      const npx = (args: string[], input?: string) =>
        spawnSync('npx', ['--no-install', 'movie-log', ...args], {
          cwd: app(),
          env,
          input,
          encoding: 'utf8',
        })
      const imdb = npx(['import', IMDB_FIXTURE, '--store', 'memory://'])
      expect([imdb.status, JSON.parse(imdb.stdout)]).toEqual([
        1,
        { added: 4, skipped: 0, refused: 2 },
      ])
      expect(imdb.stderr).toMatch(/^line 5: URL: is empty/m)
      const ndjson = `${JSON.stringify(MOVIE)}\n`
      const piped = npx(['import', '-', '--store', 'memory://'], ndjson)
      expect([piped.status, JSON.parse(piped.stdout)]).toEqual([
        0,
        { added: 1, skipped: 0, refused: 0 },
      ])
      const exported = npx(['export', '--store', 'memory://', '--format', 'csv'])
      expect([exported.status, exported.stdout]).toEqual([
        0,
        'id,title,screenedDate,releaseYear,imdbLink,notes,rating,tags\r\n',
      ])
      const copied = npx(['copy', 'memory://', 'memory://'])
      expect([copied.status, JSON.parse(copied.stdout).verified]).toEqual([0, true])
      expect(npx(['export', '--format', 'xml']).status).toBe(2)
    }, 120_000)

    more?.(app)
  })
}

// Packing, installing and type-checking take half a minute: under CI only, like the other lines.
describeUnless(UNDER_CI ? undefined : 'runs under CI=true', 'CI', `this machine's Node`, () =>
  describeUse(`this machine's Node`, process.env, /^v/, (app) => {
    it('ships only dist/, the README, the LICENSE and package.json', () => {
      // Hashed chunks are listed once per name: how tsup splits them is its business, not the package's.
      const names = run('tar', ['-tzf', tarball], work)
        .split('\n')
        .filter(Boolean)
        .map((file) => file.replace(/^package\//, '').replace(/-[A-Za-z0-9_-]{8}\./, '-[hash].'))
      const files = [...new Set(names)].sort()
      expect(files).toMatchInlineSnapshot(`
        [
          "LICENSE",
          "README.md",
          "dist/catalog-[hash].d.ts",
          "dist/catalog-[hash].js",
          "dist/catalog-[hash].js.map",
          "dist/catalog-load-[hash].js",
          "dist/catalog-load-[hash].js.map",
          "dist/chunk-[hash].js",
          "dist/chunk-[hash].js.map",
          "dist/cli.js",
          "dist/cli.js.map",
          "dist/client.d.ts",
          "dist/client.js",
          "dist/client.js.map",
          "dist/context-[hash].js",
          "dist/context-[hash].js.map",
          "dist/copy-[hash].js",
          "dist/copy-[hash].js.map",
          "dist/d1.d.ts",
          "dist/d1.js",
          "dist/d1.js.map",
          "dist/document-[hash].js",
          "dist/document-[hash].js.map",
          "dist/driver-[hash].d.ts",
          "dist/driver-[hash].js",
          "dist/driver-[hash].js.map",
          "dist/export-[hash].js",
          "dist/export-[hash].js.map",
          "dist/file-[hash].js",
          "dist/file-[hash].js.map",
          "dist/h3.d.ts",
          "dist/h3.js",
          "dist/h3.js.map",
          "dist/import-[hash].js",
          "dist/import-[hash].js.map",
          "dist/index.d.ts",
          "dist/index.js",
          "dist/index.js.map",
          "dist/manage-[hash].js",
          "dist/manage-[hash].js.map",
          "dist/memory.d.ts",
          "dist/memory.js",
          "dist/memory.js.map",
          "dist/movie-csv-[hash].js",
          "dist/movie-csv-[hash].js.map",
          "dist/movie-log-[hash].d.ts",
          "dist/node.d.ts",
          "dist/node.js",
          "dist/node.js.map",
          "dist/openapi.json",
          "dist/options-[hash].d.ts",
          "dist/page-worker.d.ts",
          "dist/page-worker.js",
          "dist/page-worker.js.map",
          "dist/page.d.ts",
          "dist/page.js",
          "dist/page.js.map",
          "dist/page/assets/diary-[hash].js",
          "dist/page/assets/diary-[hash].js.br",
          "dist/page/assets/diary-[hash].js.gz",
          "dist/page/assets/import-panel-[hash].js",
          "dist/page/assets/import-panel-[hash].js.br",
          "dist/page/assets/import-panel-[hash].js.gz",
          "dist/page/assets/share-[hash].js",
          "dist/page/assets/share-[hash].js.br",
          "dist/page/assets/share-[hash].js.gz",
          "dist/page/assets/shared-[hash].js",
          "dist/page/assets/shared-[hash].js.br",
          "dist/page/assets/shared-[hash].js.gz",
          "dist/page/assets/style-[hash].css",
          "dist/page/assets/style-[hash].css.br",
          "dist/page/assets/style-[hash].css.gz",
          "dist/page/assets/sw-[hash].js",
          "dist/page/index.html",
          "dist/postgres.d.ts",
          "dist/postgres.js",
          "dist/postgres.js.map",
          "dist/redis.d.ts",
          "dist/redis.js",
          "dist/redis.js.map",
          "dist/router-[hash].js",
          "dist/router-[hash].js.map",
          "dist/scrobble-[hash].js",
          "dist/scrobble-[hash].js.map",
          "dist/serve-[hash].js",
          "dist/serve-[hash].js.map",
          "dist/server-[hash].js",
          "dist/server-[hash].js.map",
          "dist/share-[hash].js",
          "dist/share-[hash].js.map",
          "dist/sqlite.d.ts",
          "dist/sqlite.js",
          "dist/sqlite.js.map",
          "dist/stats-[hash].js",
          "dist/stats-[hash].js.map",
          "dist/store-adapter-[hash].d.ts",
          "dist/user-[hash].js",
          "dist/user-[hash].js.map",
          "dist/version-[hash].d.ts",
          "dist/watch-[hash].js",
          "dist/watch-[hash].js.map",
          "dist/web.d.ts",
          "dist/web.js",
          "dist/web.js.map",
          "dist/webhooks-[hash].d.ts",
          "dist/webhooks-[hash].js",
          "dist/webhooks-[hash].js.map",
          "package.json",
        ]
      `)
    })

    it('moves a log from SQLite to PostgreSQL with npx movie-log, on the adapters a user installs', async () => {
      // The bin's store code, as packed: each adapter and its driver resolved from the app.
      run('npm', ['install', '--no-audit', '--no-fund', '@keyv/sqlite', '@keyv/postgres'], app())
      const database = await createPrivatePostgres('packed')
      try {
        const npx = (args: string[], input?: string) =>
          spawnSync('npx', ['--no-install', 'movie-log', ...args], {
            cwd: app(),
            input,
            encoding: 'utf8',
          })
        // What the command said, without npm's own warnings about the machine's config.
        const said = (result: { stderr: string }) => result.stderr.replace(/^npm warn .*\n/gm, '')
        const sqlite = 'sqlite://./data/packed.sqlite'
        const imported = npx(['import', '-', '--store', sqlite], `${JSON.stringify(MOVIE)}\n`)
        expect([said(imported), imported.status]).toEqual(['', 0])
        const copied = npx(['copy', sqlite, database.url])
        expect([said(copied), copied.status]).toEqual(['', 0])
        expect(JSON.parse(copied.stdout)).toMatchObject({ copied: 1, verified: true })
        const exported = npx(['export', '--store', database.url])
        expect(JSON.parse(exported.stdout)).toMatchObject(MOVIE)
        // Its start errors name PostgreSQL's own cause, not the bundler's.
        const missing = new URL(database.url)
        missing.pathname = '/movie_log_no_such_database'
        const refused = npx(['export', '--store', missing.href])
        expect([refused.status, said(refused)]).toEqual([1, expect.stringMatching(/3D000/)])
      } finally {
        await database.drop()
      }
      // A hang guard: npm builds sqlite3 from source here (no prebuilt binary from the registry),
      // which took over 4 minutes on a loaded machine of 2 cores.
    }, 600_000)

    it('has a client that calls the log, throws the core’s error class, and imports nothing from Node', () => {
      writeFileSync(
        join(app(), 'client.mjs'),
        `import { createMovieLog, MovieValidationError } from 'movie-log'
import { createMovieLogClient } from 'movie-log/client'
import { toWebHandler } from 'movie-log/web'
const web = toWebHandler(createMovieLog())
const client = createMovieLogClient('http://app/movies', { fetch: (input, init) => web(new Request(input, init)) })
const added = await client.addMovie(${JSON.stringify(MOVIE)})
const invalid = await client.addMovie({}).catch((error) => error)
const { movies } = await client.listMovies()
console.log(JSON.stringify({ listed: movies.length, same: movies[0].id === added.id, validation: invalid instanceof MovieValidationError }))
`,
      )
      expect(JSON.parse(run('node', ['client.mjs'], app()))).toEqual({
        listed: 1,
        same: true,
        validation: true,
      })
      // Every file the client entry loads, followed through its imports: none names a Node module.
      const dist = join(app(), 'node_modules', 'movie-log', 'dist')
      const seen = new Set<string>()
      const visit = (file: string) => {
        if (seen.has(file)) return
        seen.add(file)
        const code = readFileSync(join(dist, file), 'utf8')
        expect(code, file).not.toMatch(/from\s*["'](node:|crypto|fs|path|http)|import\(["']node:/)
        for (const [, imported] of code.matchAll(/from\s*["']\.\/([^"']+)["']/g)) visit(imported!)
      }
      visit('client.js')
      expect(seen.size).toBeGreaterThan(1)
    })

    it('has movie-log/page serving the built page from the package, for any mount', () => {
      writeFileSync(
        join(app(), 'page.mjs'),
        `import { toPageHandler } from 'movie-log/page'
const page = toPageHandler({ api: '/movies', basePath: '/diary' })
const html = await (await page(new Request('http://app/diary/'))).text()
const script = /src="([^"]+)"/.exec(html)[1]
const asset = await page(new Request('http://app' + script, { headers: { 'accept-encoding': 'br' } }))
const worker = await page(new Request('http://app/diary/sw.js'))
console.log(JSON.stringify({ script, built: !html.includes('{{'), asset: [asset.status, asset.headers.get('content-encoding')], worker: worker.status }))
`,
      )
      expect(JSON.parse(run('node', ['page.mjs'], app()))).toEqual({
        script: expect.stringMatching(/^\/diary\/assets\/diary-\w+\.js$/),
        built: true,
        asset: [200, 'br'],
        worker: 200,
      })
    })

    it('loads no server, command or page code on importing movie-log or movie-log/web', () => {
      // Every file each entry reaches, dynamic imports included: none imports what only
      // `movie-log serve` needs, nor holds the server's code.
      const dist = join(app(), 'node_modules', 'movie-log', 'dist')
      for (const entry of ['index.js', 'web.js']) {
        const seen = new Set<string>()
        const visit = (file: string) => {
          if (seen.has(file)) return
          seen.add(file)
          const code = readFileSync(join(dist, file), 'utf8')
          expect(code, `${entry}: ${file}`).not.toMatch(/["'](h3|h3\/node|listhen|citty)["']/)
          expect(code, `${entry}: ${file}`).not.toContain('listening on')
          for (const [, next] of code.matchAll(/(?:from\s*|import\(\s*)["']\.\/([^"']+)["']/g)) {
            visit(next!)
          }
        }
        visit(entry)
        expect(seen.size, entry).toBeGreaterThan(1)
      }
    })

    it('type-checks a strict TypeScript consumer under moduleResolution nodenext', () => {
      writeFileSync(
        join(app(), 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            types: ['node'],
          },
          files: ['consumer.mts'],
        }),
      )
      writeFileSync(
        join(app(), 'consumer.mts'),
        `import Keyv from 'keyv'
import { createMovieLog, type Movie, type MoviePage, MovieValidationError, StoreUnavailableError } from 'movie-log'
import { toWebHandler, type MovieLogHttpOptions } from 'movie-log/web'
import { toH3Handler } from 'movie-log/h3'
import { toNodeHandler } from 'movie-log/node'
import { H3 } from 'h3'
import type { Express } from 'express'


const log = createMovieLog(new Keyv({ namespace: 'app' }))
const movie: Movie = await log.addMovie(${JSON.stringify(MOVIE)})
const page: MoviePage = await log.listMovies({ limit: 10, cursor: null })
const options: MovieLogHttpOptions = { basePath: '/movies', maxBodyBytes: 1024 }
const handler: (request: Request) => Promise<Response> = toWebHandler(log, options)
new H3().mount('/movies', toH3Handler(log))
declare const express: Express
express.use('/movies', toNodeHandler(log))
// @ts-expect-error: a misspelt field is a type error
await log.addMovie({ titel: 'x' }).catch(() => {})
const error: unknown = undefined
if (MovieValidationError.is(error)) error.issues.map((issue) => issue.path)
if (StoreUnavailableError.is(error)) error.code satisfies 'STORE_UNAVAILABLE' | string
export { movie, page, handler }
`,
      )
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
      expect(run('node', [tsc, '-p', 'tsconfig.json'], app())).toBe('')

      // Checking every declaration file too: h3's own have errors of their own (an optional
      // peer's types), but movie-log's must have none.
      let output = ''
      try {
        output = run('node', [tsc, '-p', 'tsconfig.json', '--skipLibCheck', 'false'], app())
      } catch (error) {
        output = (error as { stdout: string }).stdout
      }
      const ours = output.split('\n').filter((line) => /movie-log|consumer\.mts/.test(line))
      expect(ours).toEqual([])
      // tsc alone takes about 20 s here; with the whole suite running beside it, more than 30.
    }, 120_000)
  }),
)

for (const line of NODE_LINES) {
  const binary = nodeBinary(line)
  // Under CI only: a local run stays quick, whatever binaries are cached.
  const reason = !UNDER_CI
    ? 'runs under CI=true'
    : binary
      ? undefined
      : `no binary: node --import tsx .ci/node-lines.ts fetch ${line}`
  describeUnless(reason, `a Node ${line} binary`, `Node ${line}`, () => {
    // A skipped block's body still runs to collect its tests: without a binary, it has none.
    if (binary) describeUse(`Node ${line}`, envOn(binary), new RegExp(`^v${line}\\.`))
  })
}
