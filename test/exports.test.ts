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
        "movie-log/h3": [
          "AuthorizeResult",
          "CorsOrigins",
          "MovieLogAction",
          "MovieLogHttpOptions",
          "toH3Handler",
        ],
        "movie-log/node": [
          "AuthorizeResult",
          "CorsOrigins",
          "MovieLogAction",
          "MovieLogHttpOptions",
          "MovieLogNodeHandler",
          "toNodeHandler",
        ],
        "movie-log/page": [
          "PageHandler",
          "PageHandlerOptions",
          "toPageHandler",
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
      expect(pkg.exports[key]).toEqual({
        types: `./dist/${name}.d.ts`,
        default: `./dist/${name}.js`,
      })
      expect(Object.keys(pkg.exports[key])[0]).toBe('types')
    }
    expect(Object.keys(pkg.exports).sort()).toEqual([
      '.',
      './client',
      './h3',
      './node',
      './openapi.json',
      './package.json',
      './page',
      './web',
    ])
    expect(pkg.exports['./openapi.json']).toBe('./dist/openapi.json')
    // One more tsup entry: the command, which is the package's bin.
    expect(entry.cli).toBe('src/cli/index.ts')
    expect(pkg.bin).toEqual({ 'movie-log': './dist/cli.js' })
    expect(Object.keys(entry)).toHaveLength(Object.keys(ENTRIES).length + 1)
  })
})
