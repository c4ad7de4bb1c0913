import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import tsupConfig from '../tsup.config'
import { ENTRIES, exportedNames } from './_exports'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

describe('the published surface', () => {
  it('exports exactly these names per entry', () => {
    expect(exportedNames()).toMatchInlineSnapshot(`
      {
        "movie-log": [
          "AddMovieOptions",
          "ChangeOptions",
          "ChangeRead",
          "Clock",
          "ClosableMovieLog",
          "DateQuery",
          "FeedUnavailableError",
          "IdGenerator",
          "IdempotencyError",
          "ImportMoviesOptions",
          "ImportReport",
          "ImportRow",
          "ImportRowResult",
          "InvalidOwnerError",
          "InvalidPageRequestError",
          "ListMoviesOptions",
          "LogChange",
          "LogClosedError",
          "LogDriver",
          "Movie",
          "MovieChanges",
          "MovieLog",
          "MovieLogError",
          "MovieLogErrorCode",
          "MovieLogOptions",
          "MovieLogStore",
          "MovieLogStoreInput",
          "MovieLogs",
          "MovieNotFoundError",
          "MoviePage",
          "MovieSort",
          "MovieStats",
          "MovieValidationError",
          "NamespaceConflictError",
          "NewMovie",
          "PreconditionFailedError",
          "Rewatch",
          "StatsOptions",
          "StoreAdapter",
          "StoreDriver",
          "StoreFailure",
          "StoreFailureReason",
          "StoreOpenOptions",
          "StoreOpener",
          "StoreUnavailableError",
          "StoredChange",
          "UnsupportedStoreError",
          "ValidationIssue",
          "WatchOptions",
          "createMovieLog",
          "createMovieLogs",
          "importMovies",
          "registerStoreOpener",
          "versionOf",
        ],
        "movie-log/client": [
          "AddMovieOptions",
          "ChangeOptions",
          "FeedUnavailableError",
          "IdempotencyError",
          "InvalidPageRequestError",
          "ListMoviesOptions",
          "LogChange",
          "LogClosedError",
          "Movie",
          "MovieChanges",
          "MovieLog",
          "MovieLogClientOptions",
          "MovieLogError",
          "MovieLogErrorCode",
          "MovieLogHttpError",
          "MovieNotFoundError",
          "MoviePage",
          "MovieSort",
          "MovieValidationError",
          "NamespaceConflictError",
          "NewMovie",
          "PreconditionFailedError",
          "StoreFailureReason",
          "StoreUnavailableError",
          "UnsupportedStoreError",
          "ValidationIssue",
          "WatchOptions",
          "createMovieLogClient",
          "versionOf",
        ],
        "movie-log/d1": [
          "D1DatabaseLike",
          "D1PreparedStatementLike",
          "StoreAdapter",
          "d1",
        ],
        "movie-log/h3": [
          "AuthorizeResult",
          "CorsOrigins",
          "MovieLogAction",
          "MovieLogHttpOptions",
          "toH3Handler",
        ],
        "movie-log/memory": [
          "StoreAdapter",
          "memory",
        ],
        "movie-log/node": [
          "AuthorizeResult",
          "CorsOrigins",
          "MovieLogAction",
          "MovieLogHttpOptions",
          "MovieLogNodeHandler",
          "readsBodiesFromNode",
          "toNodeHandler",
        ],
        "movie-log/page": [
          "PageHandler",
          "PageHandlerOptions",
          "toPageHandler",
        ],
        "movie-log/postgres": [
          "StoreAdapter",
          "postgres",
        ],
        "movie-log/redis": [
          "StoreAdapter",
          "redis",
        ],
        "movie-log/sqlite": [
          "StoreAdapter",
          "sqlite",
        ],
        "movie-log/web": [
          "AuthorizeResult",
          "CorsOrigins",
          "MovieLogAction",
          "MovieLogHttpOptions",
          "Problem",
          "ProblemFieldError",
          "toWebHandler",
        ],
      }
    `)
  })

  it('has package.json exports and tsup entries that agree, types first', () => {
    const entry = (tsupConfig as { entry: Record<string, string> }).entry
    for (const [subpath, source] of Object.entries(ENTRIES)) {
      const key = subpath === 'movie-log' ? '.' : `./${subpath.slice('movie-log/'.length)}`
      const name = Object.entries(entry).find(([, file]) => file === source)?.[0]
      expect(name, `${source} is a tsup entry`).toBeDefined()
      // The page on Workers: its files built into the bundle, under the workerd condition.
      const worker =
        key === './page'
          ? { workerd: './dist/page-worker.js', worker: './dist/page-worker.js' }
          : {}
      expect(pkg.exports[key]).toEqual({
        types: `./dist/${name}.d.ts`,
        ...worker,
        default: `./dist/${name}.js`,
      })
      expect(Object.keys(pkg.exports[key])[0]).toBe('types')
    }
    expect(Object.keys(pkg.exports).sort()).toEqual([
      '.',
      './client',
      './d1',
      './h3',
      './memory',
      './node',
      './openapi.json',
      './package.json',
      './page',
      './postgres',
      './redis',
      './sqlite',
      './web',
    ])
    expect(pkg.exports['./openapi.json']).toBe('./dist/openapi.json')
    // Two more tsup entries: the command, which is the package's bin, and the page on Workers.
    expect(entry.cli).toBe('src/cli/index.ts')
    expect(pkg.bin).toEqual({ 'movie-log': './dist/cli.js' })
    expect(entry['page-worker']).toBe('src/page/handler-worker.ts')
    expect(Object.keys(entry)).toHaveLength(Object.keys(ENTRIES).length + 2)
  })
})
