import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { createMovieLog, MovieValidationError } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { parseNewMovie } from '../src/core/movie'
import { createOpenApiDocument } from '../src/http/openapi/document'
import { aMovie } from './_movies'
import { runs } from './_runs'
import { webUrl } from './_text'

const document = createOpenApiDocument('/movies') as {
  components: { schemas: Record<string, { properties: Record<string, object> }> }
}
const ajv = new Ajv2020({ strict: false })
ajv.addSchema(document, 'doc')
const schemaOf = (schema: string, field: string) =>
  ajv.compile({ $ref: `doc#/components/schemas/${schema}/properties/${field}` })

/** Whether the log accepts `value` as `field` of an otherwise valid movie sent as JSON. */
function logAccepts(field: string, value: unknown): boolean {
  try {
    parseNewMovie(JSON.parse(JSON.stringify({ ...aMovie(), [field]: value })))
    return true
  } catch (error) {
    if (!(error instanceof MovieValidationError)) throw error
    return !error.issues.some((issue) => issue.path === field)
  }
}

const UNITS = [
  'a',
  'é',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u0000',
  '\u007f',
  '\u0085',
  '\u009f',
  '\u00a0',
  '\u2028',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\ufeff',
  '😀',
  '\ud800',
  '/',
  ':',
]
const text = (maxLength: number) => fc.string({ unit: fc.constantFrom(...UNITS), maxLength })
// Around a limit: `count` letters with white space around them.
const nearLimit = (limit: number) =>
  fc
    .tuple(fc.integer({ min: limit - 2, max: limit + 2 }), text(3), text(3))
    .map(([count, before, after]) => before + 'x'.repeat(count) + after)

describe('the document’s field rules agree with the log’s', () => {
  it.each([
    ['title', fc.oneof(text(20), nearLimit(500))],
    ['notes', fc.oneof(text(20), nearLimit(10_000))],
    [
      'screenedDate',
      fc.oneof(
        fc
          .tuple(
            fc.integer({ min: 0, max: 9999 }),
            ...[13, 32, 25, 61, 61].map((max) => fc.integer({ min: 0, max })),
            fc.integer({ min: 0, max: 999 }),
          )
          .map(([year, ...rest]) => {
            const [month, day, hour, minute, second, ms] = rest.map((n) =>
              String(n).padStart(2, '0'),
            )
            return `${String(year).padStart(4, '0')}-${month}-${day}T${hour}:${minute}:${second}.${ms!.padStart(3, '0')}`
          }),
        fc
          .constantFrom(
            '2023',
            '2024',
            '2016',
            '2012',
            '1996',
            '1900',
            '2000',
            '0000',
            '2100',
            '1600',
            '1700',
          )
          .map((year) => `${year}-02-29T00:00:00.000`),
        fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, -1)),
        fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
        text(24),
      ),
    ],
    [
      'releaseYear',
      fc.oneof(
        fc.integer({ min: 1800, max: 10_100 }),
        fc.constantFrom(1869, 1870, 9999, 10_000, '1995'),
        fc.double(),
      ),
    ],
  ])('%s: the schema accepts exactly what the log accepts', (field, values) => {
    const sent = schemaOf('NewMovie', field)
    const stored = schemaOf('Movie', field)
    fc.assert(
      fc.property(values as fc.Arbitrary<unknown>, (value) => {
        const accepted = logAccepts(field, value)
        expect(sent(JSON.parse(JSON.stringify(value))), JSON.stringify(value)).toBe(accepted)
        if (accepted) {
          const movie = parseNewMovie({ ...aMovie(), [field]: value }) as Record<string, unknown>
          expect(stored(movie[field]), JSON.stringify(movie[field])).toBe(true)
        }
      }),
      { numRuns: runs(2000) },
    )
  })

  it('imdbLink: the schema accepts every link the log accepts, and refuses what a pattern can see', () => {
    const sent = schemaOf('NewMovie', 'imdbLink')
    const links = fc.oneof(
      webUrl({
        validSchemes: ['https', 'http'],
        withQueryParameters: true,
        withFragments: true,
      }),
      fc
        .tuple(fc.constantFrom('https://', 'HTTPS://', 'https:', 'https:\\\\'), text(8), text(8))
        .map(([scheme, sub, path]) => `${scheme}${sub}.imdb.com/${path}`),
      fc.string({ maxLength: 3000 }).map((rest) => `https://www.imdb.com/${rest}`),
    )
    fc.assert(
      fc.property(links, (link) => {
        if (logAccepts('imdbLink', link)) expect(sent(link), link).toBe(true)
      }),
      { numRuns: runs(3000) },
    )
    for (const link of ['http://www.imdb.com/', ' https://www.imdb.com/', 'https://imdb.com/a b']) {
      expect([logAccepts('imdbLink', link), sent(link)]).toEqual([false, false])
    }
    expect(sent(`https://www.imdb.com/${'x'.repeat(2048)}`)).toBe(false)
  })
})

// Trakt's routes (src/http/openapi/trakt.ts), after the log's own.
const TRAKT = [
  '/trakt/oauth/device/code',
  '/trakt/oauth/device/token',
  '/trakt/oauth/device/approve',
  '/trakt/oauth/grants',
  '/trakt/oauth/grants/{id}',
  '/trakt/oauth/token',
  '/trakt/oauth/revoke',
  '/trakt/users/settings',
  '/trakt/scrobble/{action}',
  '/trakt/sync/history',
  '/trakt/sync/history/remove',
  '/trakt/sync/ratings',
  '/trakt/sync/ratings/{type}',
  '/trakt/sync/ratings/{type}/{rating}',
  '/trakt/sync/ratings/remove',
  '/trakt/sync/watched/movies',
  '/trakt/sync/last_activities',
]

// A share link's (src/http/openapi/share.ts): the owner's `/share` before `/{id}`, what the
// link opens after the scrobbles.
const SHARED = ['/s/{token}', '/s/{token}/movies', '/s/{token}/rss', '/s/{token}/ics']
const WEBHOOKS = ['/webhooks', '/webhooks/{webhookId}']

describe('the document', () => {
  it.each([
    [
      '/api/movies',
      '/api/movies',
      [
        '/api/movies',
        '/api/movies/openapi.json',
        '/api/movies/stats',
        '/api/movies/catalog',
        '/api/movies/share',
        '/api/movies/import',
        '/api/movies/{id}',
        '/api/movies/scrobble/{source}',
        ...SHARED.map((path) => `/api/movies${path}`),
        ...TRAKT.map((path) => `/api/movies${path}`),
        ...WEBHOOKS.map((path) => `/api/movies${path}`),
      ],
    ],
    [
      '/',
      '',
      [
        '/',
        '/openapi.json',
        '/stats',
        '/catalog',
        '/share',
        '/import',
        '/{id}',
        '/scrobble/{source}',
        ...SHARED,
        ...TRAKT,
        ...WEBHOOKS,
      ],
    ],
  ])('is served under basePath %s with its paths under it', async (basePath, prefix, paths) => {
    const handle = toWebHandler(createMovieLog(), { basePath })
    const response = await handle(new Request(`http://movie-log.test${prefix}/openapi.json`))
    expect(response.status).toBe(200)
    expect(Object.keys((await response.json()).paths)).toEqual(paths)
  })

  // Redocly's lint of it, a whole tool: test/ci/openapi-lint.test.ts.
})
