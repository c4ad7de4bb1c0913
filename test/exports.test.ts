import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import tsupConfig from '../tsup.config'
import { ENTRIES, exportedNames } from './_exports'

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))

/** The names docs/reference/api.md lists under each entry's `### \`entry\`` heading. */
function documentedNames(api: string): Record<string, string[]> {
  const documented: Record<string, string[]> = {}
  for (const section of api.split(/^### /m).slice(1)) {
    const entry = /^`([^`]+)`/.exec(section)?.[1] ?? ''
    documented[entry] = [...section.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]!).sort()
  }
  return documented
}

describe('the published surface', () => {
  // Read once: the TypeScript compiler takes a second or two over the entries.
  const exported = exportedNames()

  it('exports exactly these names per entry', () => {
    expect(exported).toMatchInlineSnapshot(`
      {
        "movie-log": [
          "AddMovieOptions",
          "Catalog",
          "CatalogEntry",
          "CatalogNotLoadedError",
          "CatalogQuery",
          "ChangeOptions",
          "ChangeRead",
          "Clock",
          "ClosableMovieLog",
          "CreatedWebhookEndpoint",
          "DEFAULT_RETRY_DELAYS_MS",
          "DateQuery",
          "FeedUnavailableError",
          "HostLookup",
          "IdGenerator",
          "IdempotencyError",
          "ImportFormat",
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
          "MOVIE_LOG_PLUGIN",
          "Movie",
          "MovieChanges",
          "MovieLog",
          "MovieLogError",
          "MovieLogErrorCode",
          "MovieLogOptions",
          "MovieLogPlugin",
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
          "NewWebhookEndpoint",
          "PluginContainer",
          "PreconditionFailedError",
          "Rewatch",
          "Scrobble",
          "ScrobbleSource",
          "ShareLink",
          "ShareOptions",
          "ShareableMovieLog",
          "StatsOptions",
          "StoreAdapter",
          "StoreDriver",
          "StoreFailure",
          "StoreFailureReason",
          "StoreOpenOptions",
          "StoreOpener",
          "StoreUnavailableError",
          "StoredChange",
          "TagCount",
          "UnsupportedStoreError",
          "ValidationIssue",
          "WEBHOOK_EVENTS",
          "WatchOptions",
          "WatchTime",
          "Watched",
          "WebhookDelivery",
          "WebhookDeliveryOptions",
          "WebhookEndpoint",
          "WebhookEvent",
          "WebhookStatus",
          "WebhookValidationError",
          "Webhooks",
          "WebhooksOptions",
          "createMovieLog",
          "createMovieLogs",
          "definePlugin",
          "importMovies",
          "registerPlugin",
          "registerPluginsFrom",
          "registerStoreOpener",
          "startWebhookDelivery",
          "versionOf",
          "webhooksOf",
        ],
        "movie-log/client": [
          "AddMovieOptions",
          "Catalog",
          "CatalogEntry",
          "CatalogNotLoadedError",
          "CatalogQuery",
          "ChangeOptions",
          "FeedUnavailableError",
          "FileImportReport",
          "IdempotencyError",
          "ImportFileOptions",
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
          "createCatalogClient",
          "createMovieLogClient",
          "importFile",
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
          "ClosableCatalog",
          "StoreAdapter",
          "openCatalog",
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

  it('is documented in docs/reference/api.md, entry by entry, and nothing that is not exported', () => {
    const documented = documentedNames(
      readFileSync(new URL('../docs/reference/api.md', import.meta.url), 'utf8'),
    )
    expect(Object.keys(documented).sort()).toEqual(Object.keys(ENTRIES).sort())
    expect(documented).toEqual(exported)
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
    expect(entry['page-worker']).toBe('src/page/server/handler-worker.ts')
    expect(Object.keys(entry)).toHaveLength(Object.keys(ENTRIES).length + 2)
  })
})
