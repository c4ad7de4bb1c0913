import { afterEach, describe, expect, it, vi } from 'vitest'
import { fixture } from './_scrobble'
import { serving, TOKEN } from './_trakt-web'

// Trakt's routes and Kodi's events through the web handler on memory: the answers a client
// gets for each case of the device flow, scrobbles and Kodi's events.

afterEach(() => {
  vi.useRealTimers()
})

describe('Trakt device flow', () => {
  it('answers pending, slow down, denied, expired, unknown and used as Trakt does', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const { codes, answer, poll } = serving()
    const first = await codes()
    expect((await poll(first.device_code)).status).toBe(400)
    expect(await (await poll(first.device_code)).json()).toMatchObject({ error: 'slow_down' })
    vi.advanceTimersByTime(5000)
    expect((await poll(first.device_code)).status).toBe(400)
    // Typed by a person: lower case, a dash in the middle.
    const typed = `${first.user_code.slice(0, 4).toLowerCase()}-${first.user_code.slice(4)}`
    expect((await answer(typed)).status).toBe(200)
    expect((await poll(first.device_code)).status).toBe(200)
    expect((await poll(first.device_code)).status).toBe(409)
    const denied = await codes()
    await answer(denied.user_code, false)
    expect((await poll(denied.device_code)).status).toBe(418)
    const late = await codes()
    vi.advanceTimersByTime(601_000)
    expect((await poll(late.device_code)).status).toBe(410)
    expect((await answer(late.user_code)).status).toBe(404)
    expect((await poll('not-a-code')).status).toBe(404)
  })

  it('approves only for a person the log lets add, and never with a Trakt token', async () => {
    const { post, codes, signedIn } = serving()
    const { user_code } = await codes()
    const approve = (authorization?: string) =>
      post('/trakt/oauth/device/approve', { user_code }, authorization ? { authorization } : {})
    expect((await approve()).status).toBe(401)
    expect((await approve('Bearer wrong')).status).toBe(401)
    const trakt = await signedIn()
    expect((await trakt('/oauth/device/approve', { user_code })).status).toBe(401)
  })
})

describe('Trakt scrobbles', () => {
  it('answers episodes and unknown movies as Trakt does, storing nothing', async () => {
    const { log, signedIn } = serving()
    const trakt = await signedIn()
    const episode = { show: { title: 'Twin Peaks' }, episode: { season: 1, number: 1 } }
    const told = await trakt('/scrobble/stop', { ...episode, progress: 99 })
    expect(told.status).toBe(201)
    expect(await told.json()).toMatchObject({ action: 'scrobble', episode: { season: 1 } })
    const tmdbOnly = { movie: { title: 'Heat', year: 1995, ids: { tmdb: 949 } }, progress: 99 }
    expect((await trakt('/scrobble/stop', tmdbOnly)).status).toBe(404)
    const noYear = { movie: { title: 'Heat', ids: { imdb: 'tt0113277' } }, progress: 99 }
    const refused = await trakt('/scrobble/stop', noYear)
    expect(refused.status).toBe(422)
    // Not logged, so the window is free: the same movie with its year logs.
    const logged = await trakt('/scrobble/stop', {
      ...noYear,
      movie: { ...noYear.movie, year: 1995 },
    })
    expect(logged.status).toBe(201)
    expect((await log.listMovies()).movies.map((movie) => movie.title)).toEqual(['Heat'])
  })
})

describe('POST /movies/scrobble/kodi', () => {
  it('logs a movie played to its end once, and leaves a movie stopped early and an episode', async () => {
    const { log, post } = serving()
    const send = (payload: unknown) =>
      post('/scrobble/kodi', payload, { authorization: `Bearer ${TOKEN}` })
    const ended = await send(fixture('kodi-movie-end'))
    expect(ended.status).toBe(201)
    expect(await ended.json()).toMatchObject({
      title: 'The Shawshank Redemption',
      releaseYear: 1994,
      imdbLink: 'https://www.imdb.com/title/tt0111161/',
      notes: 'Scrobbled from Kodi',
    })
    // The add-on's `stop` after the `end` of one play: the same watch.
    const stopped = { ...fixture('kodi-movie-end'), event: 'stop', progress: 96 }
    expect((await send(stopped)).status).toBe(200)
    expect((await send(fixture('kodi-movie-stopped-early'))).status).toBe(204)
    expect((await send(fixture('kodi-episode-end'))).status).toBe(204)
    for (const event of ['start', 'pause', 'resume', 'seek', 'interval']) {
      expect((await send({ ...fixture('kodi-movie-end'), event })).status, event).toBe(204)
    }
    expect((await send({ ...fixture('kodi-movie-end'), event: 'played' })).status).toBe(400)
    const noImdb = fixture('kodi-movie-end')
    noImdb.item = { type: 'movie', title: 'Heat', year: 1995, uniqueid: { tmdb: '949' } }
    const incomplete = await send(noImdb)
    expect(incomplete.status).toBe(422)
    expect(await incomplete.json()).toMatchObject({ errors: [{ pointer: '/item/uniqueid/imdb' }] })
    expect((await log.listMovies()).movies).toHaveLength(1)
  })
})
