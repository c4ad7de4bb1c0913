import { join } from 'node:path'
import { openCatalog } from 'movie-log/sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFixtureCatalog } from './_catalog'
import { tempFolders } from './_temp'
import { serving } from './_trakt-web'

// Issue 59: a Trakt scrobble, history item or rating without an IMDb id is matched through the
// fixture catalog (test/fixtures/imdb-datasets) by its title and year; a TMDB id alone is not.
const folder = tempFolders()('movie-log-trakt-catalog-')
const path = join(folder, 'catalog.sqlite')
const catalog = openCatalog(path)
beforeAll(() => loadFixtureCatalog(path))
afterAll(() => catalog.close())

const tt = (id: string) => `https://www.imdb.com/title/${id}/`
const shawshank = { title: 'The Shawshank Redemption', year: 1994, ids: { tmdb: 278 } }

describe('Trakt with a catalog', () => {
  it('logs a scrobble known by title and year, and a TMDB id alone stays unknown', async () => {
    const { log, signedIn } = serving({ catalog })
    const { post } = await signedIn()
    const stopped = await post('/scrobble/stop', { movie: shawshank, progress: 95 })
    expect(stopped.status).toBe(201)
    expect(await stopped.json()).toMatchObject({ action: 'scrobble', movie: { ids: {} } })
    const tmdbOnly = await post('/scrobble/stop', { movie: { ids: { tmdb: 278 } }, progress: 95 })
    expect(tmdbOnly.status).toBe(404)
    expect((await log.listMovies()).movies).toMatchObject([
      { title: 'The Shawshank Redemption', releaseYear: 1994, imdbLink: tt('tt0111161') },
    ])
  })

  it('adds, rates and removes history by title and year; two entries of a title are no match', async () => {
    const { log, signedIn } = serving({ catalog })
    const { post } = await signedIn()
    const amelie = { title: 'Amélie', year: 2001, watched_at: '2024-06-01T18:30:00.000Z' }
    // Two IMDb entries are Hamlet (1990), none is The Matrix Reloaded: neither is guessed.
    const hamlet = { title: 'Hamlet', year: 1990, ids: { tmdb: 10264 } }
    const reloaded = { title: 'The Matrix Reloaded', year: 2003 }
    const added = await post('/sync/history', { movies: [amelie, hamlet, reloaded] })
    expect(await added.json()).toMatchObject({
      added: { movies: 1 },
      not_found: { movies: [hamlet, reloaded] },
    })
    const [entry] = (await log.listMovies()).movies
    expect(entry).toMatchObject({ title: 'Amélie', imdbLink: tt('tt0211915') })
    const rated = await post('/sync/ratings', { movies: [{ ...amelie, rating: 8 }] })
    expect(await rated.json()).toMatchObject({ added: { movies: 1 } })
    expect((await log.getMovie(entry?.id as string))?.rating).toBe(8)
    const removed = await post('/sync/history/remove', {
      movies: [{ title: 'Amélie', year: 2001 }],
    })
    expect(await removed.json()).toMatchObject({ deleted: { movies: 1 } })
    expect((await log.listMovies()).movies).toEqual([])
  })

  it('answers an unknown item when no catalog is loaded', async () => {
    const { log, signedIn } = serving({ catalog: openCatalog(join(folder, 'never-loaded.sqlite')) })
    const { post } = await signedIn()
    const stopped = await post('/scrobble/stop', { movie: shawshank, progress: 95 })
    expect(stopped.status).toBe(404)
    // Trakt's unknown item, which its clients read, not the catalog route's problem.
    expect(await stopped.json()).toMatchObject({ error: 'not_found' })
    expect((await log.listMovies()).movies).toEqual([])
  })
})
