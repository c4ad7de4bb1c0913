import { join } from 'node:path'
import { createMovieLog, type Movie } from 'movie-log'
import { openCatalog } from 'movie-log/sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFixtureCatalog } from './_catalog'
import { HTTP_TARGETS } from './_http-targets'
import { type Delivery, embyDelivery, fixture, jellyfinDelivery, requestInit } from './_scrobble'
import { tempFolders } from './_temp'

// Issue 58: GET {base}/catalog?q=&year= on every adapter, and scrobbles without an IMDb id
// matched through the catalog. Every answer is held to the OpenAPI document (HTTP_TARGETS).
const folder = tempFolders()('movie-log-catalog-http-')
const path = join(folder, 'catalog.sqlite')
const catalog = openCatalog(path)
beforeAll(() => loadFixtureCatalog(path))
afterAll(() => catalog.close())

const tt = (id: string) => `https://www.imdb.com/title/${id}/`

describe.each(HTTP_TARGETS)('GET /movies/catalog on %s', (_name, serve) => {
  it('answers the candidates, best first, as JSON', async () => {
    const target = await serve(createMovieLog(), { catalog })
    try {
      const response = await target.fetch('/movies/catalog?q=amelie&year=2001')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      expect(await response.json()).toEqual([
        {
          imdbLink: tt('tt0211915'),
          title: 'Amélie',
          originalTitle: "Le fabuleux destin d'Amélie Poulain",
          year: 2001,
          runtimeMinutes: 122,
          match: 'title',
        },
      ])
      const dune = await target.fetch(`/movies/catalog?q=${encodeURIComponent('Dune: Part')}`)
      expect((await dune.json()).map((entry: { imdbLink: string }) => entry.imdbLink)).toEqual([
        tt('tt1160419'),
        tt('tt15239678'),
      ])
      const none = await target.fetch('/movies/catalog?q=nothing%20like%20it')
      expect(await none.json()).toEqual([])
    } finally {
      await target.close()
    }
  })

  it('refuses an empty q and a bad year, naming the parameter', async () => {
    const target = await serve(createMovieLog(), { catalog })
    try {
      for (const [query, parameter] of [
        ['', 'q'],
        ['?q=%20', 'q'],
        ['?q=dune&year=84', 'year'],
        ['?q=dune&year=abcd', 'year'],
      ]) {
        const response = await target.fetch(`/movies/catalog${query}`)
        expect(response.status).toBe(400)
        const problem = await response.json()
        expect(problem.errors).toEqual([{ parameter, detail: expect.any(String) }])
      }
    } finally {
      await target.close()
    }
  })

  it('says no catalog is loaded, naming the command that loads one', async () => {
    for (const options of [{}, { catalog: openCatalog(join(folder, 'never-loaded.sqlite')) }]) {
      const target = await serve(createMovieLog(), options)
      try {
        const response = await target.fetch('/movies/catalog?q=dune')
        expect(response.status).toBe(404)
        const problem = await response.json()
        expect(problem.type).toBe('urn:movie-log:problem:catalog-not-loaded')
        expect(problem.detail).toContain('movie-log catalog load')
      } finally {
        await target.close()
      }
    }
  })
})

describe('a scrobble without an IMDb id', () => {
  const send = async (delivery: Delivery, withCatalog = true) => {
    const log = createMovieLog()
    const [, serve] = HTTP_TARGETS[0] as (typeof HTTP_TARGETS)[number]
    const target = await serve(log, withCatalog ? { catalog, timeZone: 'UTC' } : {})
    try {
      return {
        log,
        response: await target.fetch(`/movies/scrobble/${kindOf(delivery)}`, {
          method: 'POST',
          ...requestInit(delivery),
        }),
      }
    } finally {
      await target.close()
    }
  }
  const kindOf = (delivery: Delivery) =>
    delivery.headers['content-type']?.startsWith('text/plain') ? 'jellyfin' : 'emby'

  it.each([
    ['emby', () => embyDelivery(fixture('emby-movie-no-imdb'))],
    ['jellyfin', () => jellyfinDelivery(fixture('jellyfin-movie-no-imdb'))],
  ])('from %s is logged with the one entry of its title and year', async (_source, delivery) => {
    const { log, response } = await send(delivery())
    expect(response.status).toBe(201)
    const movie = (await response.json()) as Movie
    expect(movie).toMatchObject({
      title: 'The Shawshank Redemption',
      releaseYear: 1994,
      imdbLink: tt('tt0111161'),
    })
    expect((await log.listMovies()).movies).toEqual([movie])
  })

  it('is matched by another-language title, and still refused without a catalog', async () => {
    const payload = fixture('emby-movie-no-imdb')
    Object.assign(payload.Item as object, {
      Name: 'Die fabelhafte Welt der Amelie',
      ProductionYear: 2001,
    })
    const { response } = await send(embyDelivery(payload))
    expect(response.status).toBe(201)
    expect((await response.json()).imdbLink).toBe(tt('tt0211915'))
    const { log, response: refused } = await send(
      embyDelivery(fixture('emby-movie-no-imdb')),
      false,
    )
    expect(refused.status).toBe(422)
    expect((await log.listMovies()).movies).toEqual([])
  })

  it.each([
    ['Hamlet', 1990, /2 IMDb entries of the catalog are 'Hamlet' \(1990\): .*tt0099726.*tt0100183/],
    ['Hamlet', 1985, /no IMDb entry of the catalog is 'Hamlet' \(1985\)/],
    ['The Matrix Reloaded', 2003, /no IMDb entry of the catalog is 'The Matrix Reloaded'/],
  ])(
    'named %s (%i) is refused with 422, saying why, and nothing stored',
    async (name, year, why) => {
      const payload = fixture('emby-movie-no-imdb')
      Object.assign(payload.Item as object, { Name: name, ProductionYear: year })
      const { log, response } = await send(embyDelivery(payload))
      expect(response.status).toBe(422)
      const problem = await response.json()
      expect(problem.errors).toEqual([
        { pointer: '/Item/ProviderIds/Imdb', detail: expect.stringMatching(why) },
      ])
      expect(problem.detail).toMatch(why)
      expect((await log.listMovies()).movies).toEqual([])
    },
  )
})

describe('createCatalogClient', () => {
  it('finds through a server, and says when it has no catalog', async () => {
    const { toWebHandler } = await import('movie-log/web')
    const { createCatalogClient, CatalogNotLoadedError } = await import('movie-log/client')
    const handler = toWebHandler(createMovieLog(), { catalog })
    const client = createCatalogClient('http://localhost/movies', {
      fetch: (input, init) => handler(new Request(input, init)),
    })
    const found = await client.find({ title: 'Spirited Away', year: 2001 })
    expect(found.map((entry) => entry.imdbLink)).toEqual([tt('tt0245429')])
    expect(await client.find({ title: 'dune' }, 1)).toHaveLength(1)
    const bare = toWebHandler(createMovieLog())
    const without = createCatalogClient('http://localhost/movies', {
      fetch: (input, init) => bare(new Request(input, init)),
    })
    const error = await without.find({ title: 'dune' }).catch((error: unknown) => error)
    expect(CatalogNotLoadedError.is(error)).toBe(true)
  })
})

describe('movie-log serve', () => {
  it('answers from the catalog beside its SQLite diary, loaded after it started', async () => {
    const { startServerProcess, stop } = await import('./_processes')
    const diary = join(folder, 'served.sqlite')
    const server = await startServerProcess({
      MOVIE_LOG_STORE: `sqlite://${diary}`,
      MOVIE_LOG_CATALOG: '',
    })
    try {
      const before = await fetch(`${server.url}/catalog?q=the%20matrix`)
      expect(before.status).toBe(404)
      await loadFixtureCatalog(`${diary}.catalog.sqlite`)
      const after = await fetch(`${server.url}/catalog?q=the%20matrix&year=1999`)
      expect(after.status).toBe(200)
      expect((await after.json()).map((entry: { imdbLink: string }) => entry.imdbLink)).toEqual([
        tt('tt0133093'),
      ])
    } finally {
      await stop(server)
    }
  })
})
