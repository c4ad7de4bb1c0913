import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { tempFolders } from './_temp'

// The packed tarball, installed into a fresh app, used the way users use it.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const tempFolder = tempFolders()
const app = tempFolder('consumer-app-')
let tarball = ''

const run = (command: string, args: string[], cwd = app) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

const MOVIE = {
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
}

beforeAll(() => {
  run('npm', ['run', 'build'], ROOT)
  const packArgs = ['pack', '--json', '--ignore-scripts', '--pack-destination', app]
  const [packed] = JSON.parse(run('npm', packArgs, ROOT))
  tarball = join(app, packed.filename)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }))
  run('npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--prefer-offline',
    tarball,
    'keyv@5.6.0',
    'h3@2.0.8',
    '@types/node@20',
  ])
}, 240_000)

describe('the packed package', () => {
  it('ships only dist/, the README, the LICENSE and package.json', () => {
    const files = run('tar', ['-tzf', tarball])
      .split('\n')
      .filter(Boolean)
      .map((file) => file.replace(/^package\//, '').replace(/-[A-Za-z0-9_]{8}\./, '-[hash].'))
      .sort()
    expect(files).toMatchInlineSnapshot(`
      [
        "LICENSE",
        "README.md",
        "dist/chunk-[hash].js",
        "dist/chunk-[hash].js",
        "dist/chunk-[hash].js",
        "dist/chunk-[hash].js.map",
        "dist/chunk-[hash].js.map",
        "dist/chunk-[hash].js.map",
        "dist/client.d.ts",
        "dist/client.js",
        "dist/client.js.map",
        "dist/h3.d.ts",
        "dist/h3.js",
        "dist/h3.js.map",
        "dist/index.d.ts",
        "dist/index.js",
        "dist/index.js.map",
        "dist/movie-log-[hash].d.ts",
        "dist/openapi.json",
        "dist/options-[hash].d.ts",
        "dist/web.d.ts",
        "dist/web.js",
        "dist/web.js.map",
        "package.json",
      ]
    `)
  })

  it('imports every entry from ESM and serves a request through each adapter', () => {
    writeFileSync(
      join(app, 'esm.mjs'),
      `import { createMovieLog, MovieValidationError } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { toH3Handler } from 'movie-log/h3'
import { H3 } from 'h3'
import document from 'movie-log/openapi.json' with { type: 'json' }
const log = createMovieLog()
const web = toWebHandler(log)
const post = await web(new Request('http://app/movies', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(JSON.stringify(MOVIE))} }))
const app = new H3().mount('/movies', toH3Handler(log))
const list = await app.fetch(new Request('http://app/movies'))
const invalid = await log.addMovie({}).catch((error) => error)
console.log(JSON.stringify({ post: post.status, list: list.status, listed: (await list.json()).length, validation: invalid instanceof MovieValidationError, openapi: document.openapi, paths: Object.keys(document.paths) }))
`,
    )
    expect(JSON.parse(run('node', ['esm.mjs']))).toEqual({
      post: 201,
      list: 200,
      listed: 1,
      validation: true,
      openapi: '3.1.0',
      paths: ['/movies', '/movies/openapi.json', '/movies/{id}'],
    })
  })

  it('has a client that calls the log, throws the core’s error class, and imports nothing from Node', () => {
    writeFileSync(
      join(app, 'client.mjs'),
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
    expect(JSON.parse(run('node', ['client.mjs']))).toEqual({
      listed: 1,
      same: true,
      validation: true,
    })
    // Every file the client entry loads, followed through its imports: none names a Node module.
    const dist = join(app, 'node_modules', 'movie-log', 'dist')
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

  it('loads every entry with require() from CommonJS, sharing one error class', () => {
    writeFileSync(
      join(app, 'cjs.cjs'),
      `const core = require('movie-log')
const web = require('movie-log/web')
const h3 = require('movie-log/h3')
const log = core.createMovieLog()
log.addMovie({ title: 1 }).catch((error) => {
  console.log(JSON.stringify({
    createMovieLog: typeof core.createMovieLog,
    toWebHandler: typeof web.toWebHandler,
    toH3Handler: typeof h3.toH3Handler,
    validation: error instanceof core.MovieValidationError,
  }))
})
`,
    )
    const output = run('node', ['--no-warnings', 'cjs.cjs'])
    expect(JSON.parse(output)).toEqual({
      createMovieLog: 'function',
      toWebHandler: 'function',
      toH3Handler: 'function',
      validation: true,
    })
  })

  it('type-checks a strict TypeScript consumer under moduleResolution nodenext', () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
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
      join(app, 'consumer.mts'),
      `import Keyv from 'keyv'
import { createMovieLog, type Movie, type MoviePage, MovieValidationError, StoreUnavailableError } from 'movie-log'
import { toWebHandler, type MovieLogHttpOptions } from 'movie-log/web'
import { toH3Handler } from 'movie-log/h3'
import { H3 } from 'h3'


const log = createMovieLog(new Keyv({ namespace: 'app' }))
const movie: Movie = await log.addMovie(${JSON.stringify(MOVIE)})
const page: MoviePage = await log.listMovies({ limit: 10, cursor: null })
const options: MovieLogHttpOptions = { basePath: '/movies', maxBodyBytes: 1024 }
const handler: (request: Request) => Promise<Response> = toWebHandler(log, options)
new H3().mount('/movies', toH3Handler(log))
const error: unknown = undefined
if (MovieValidationError.is(error)) error.issues.map((issue) => issue.path)
if (StoreUnavailableError.is(error)) error.code satisfies 'STORE_UNAVAILABLE' | string
export { movie, page, handler }
`,
    )
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
    expect(run('node', [tsc, '-p', 'tsconfig.json'])).toBe('')

    // Checking every declaration file too: h3's own have errors of their own (an optional
    // peer's types), but movie-log's must have none.
    let output = ''
    try {
      output = run('node', [tsc, '-p', 'tsconfig.json', '--skipLibCheck', 'false'])
    } catch (error) {
      output = (error as { stdout: string }).stdout
    }
    const ours = output.split('\n').filter((line) => /movie-log|consumer\.mts/.test(line))
    expect(ours).toEqual([])
    // tsc alone takes about 20 s here; with the whole suite running beside it, more than 30.
  }, 120_000)
})
