import { describe, expect, it } from 'vitest'
import { serving } from './_trakt-web'

// Issue 59: Trakt's `/sync/ratings` on the diary's `rating`, through the web handler on memory.
describe('Trakt ratings', () => {
  const heat = { title: 'Heat', year: 1995, ids: { imdb: 'tt0113277' } }
  const alien = { title: 'Alien', year: 1979, ids: { imdb: 'tt0078748' } }
  const screened = (screenedDate: string, movie = heat) => ({
    title: movie.title,
    releaseYear: movie.year,
    imdbLink: `https://www.imdb.com/title/${movie.ids.imdb}/`,
    screenedDate,
  })
  const read = async (trakt: (path: string) => Promise<Response>, path = '/sync/ratings') =>
    (await trakt(path)).json()

  it('rates the latest entry of a movie, reads it back and removes it, as Trakt answers', async () => {
    const { log, signedIn } = serving()
    const older = await log.addMovie({ ...screened('2024-01-01T20:00:00.000'), rating: 4 })
    const latest = await log.addMovie(screened('2024-06-01T20:30:00.000'))
    await log.addMovie(screened('2024-03-01T20:00:00.000', alien))
    const { post, get } = await signedIn()
    expect(await read(get)).toEqual([
      {
        rated_at: '2024-01-01T19:00:00.000Z',
        rating: 4,
        type: 'movie',
        movie: { ...heat, ids: { ...heat.ids, trakt: null, slug: null, tmdb: null } },
      },
    ])
    const tmdbOnly = { ids: { tmdb: 949 }, rating: 7 }
    const added = await post('/sync/ratings', {
      movies: [{ ...heat, rating: 9, rated_at: '2024-06-02T10:00:00.000Z' }, tmdbOnly],
      shows: [{ ids: { trakt: 1 }, rating: 8 }],
    })
    expect(added.status).toBe(201)
    expect(await added.json()).toEqual({
      added: { movies: 1, shows: 0, seasons: 0, episodes: 0 },
      not_found: {
        movies: [tmdbOnly],
        shows: [{ ids: { trakt: 1 }, rating: 8 }],
        seasons: [],
        episodes: [],
      },
    })
    expect((await log.getMovie(latest.id))?.rating).toBe(9)
    expect((await log.getMovie(older.id))?.rating).toBe(4)
    // One entry per movie: its latest rating, at that entry's watch; filtered by value and type.
    expect(await read(get, '/sync/ratings/movies')).toMatchObject([
      { rated_at: '2024-06-01T18:30:00.000Z', rating: 9, movie: { title: 'Heat' } },
    ])
    expect(await read(get, '/sync/ratings/movies/8,10')).toEqual([])
    expect(await read(get, '/sync/ratings/movies/9')).toHaveLength(1)
    expect(await read(get, '/sync/ratings/shows')).toEqual([])
    expect((await get('/sync/ratings/movies/eleven')).status).toBe(400)
    expect(await read(get, '/sync/last_activities')).toMatchObject({
      movies: { rated_at: expect.not.stringMatching(/^1970/) },
    })
    const removed = await post('/sync/ratings/remove', { movies: [{ ids: heat.ids }, alien] })
    expect(removed.status).toBe(200)
    expect(await removed.json()).toMatchObject({
      deleted: { movies: 1 },
      not_found: { movies: [alien] },
    })
    expect(await read(get)).toEqual([])
    expect(await log.getMovie(older.id)).not.toHaveProperty('rating')
  })

  it('refuses a rating out of 1-10 naming it, and rates nothing', async () => {
    const { log, signedIn } = serving()
    const movie = await log.addMovie(screened('2024-06-01T20:30:00.000'))
    const { post } = await signedIn()
    for (const rating of [0, 11, 7.5, '8', undefined]) {
      const refused = await post('/sync/ratings', {
        movies: [
          { ...heat, rating: 8 },
          { ...heat, rating },
        ],
      })
      expect(refused.status, String(rating)).toBe(422)
      expect((await refused.json()).error_description).toContain('movies[1].rating')
    }
    expect(await log.getMovie(movie.id)).toEqual(movie)
  })
})
