// Issue 26: the JSON text of movies was kept for the first 4,096 movie objects, for ever, and
// then for none. It is now kept beside each frozen movie object for as long as it lives.
import type { Movie } from 'movie-log'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { movieJson, moviesJson } from '../src/http/movie-json'
import { aMovie } from './_movies'

afterEach(() => {
  vi.restoreAllMocks()
})

const frozenMovie = (id: string, overrides: Record<string, unknown> = {}): Movie =>
  Object.freeze({ id, ...aMovie(overrides) }) as Movie

describe('the JSON text of a movie', () => {
  it('is still kept after 10,000 distinct movies: each written once, however often sent', () => {
    for (let n = 0; n < 10_000; n++) movieJson(frozenMovie(`before-${n}`))
    const movie = frozenMovie('after')
    const stringify = vi.spyOn(JSON, 'stringify')
    const first = movieJson(movie)
    expect(moviesJson([movie, movie])).toBe(`[${first},${first}]`)
    expect(movieJson(movie)).toBe(first)
    expect(stringify).toHaveBeenCalledTimes(1)
  })

  it('never gives a changed movie its old text', () => {
    const movie = frozenMovie('a', { title: 'Heat' })
    expect(JSON.parse(movieJson(movie)).title).toBe('Heat')
    // An edit makes a new frozen object, with the same id.
    const edited = Object.freeze({ ...movie, title: 'Edited' })
    expect(JSON.parse(movieJson(edited)).title).toBe('Edited')
    expect(moviesJson([edited])).toBe(JSON.stringify([edited]))
    // An object that is not frozen may change in place: its text is written each time.
    const open = { ...movie }
    expect(movieJson(open)).toBe(JSON.stringify(movie))
    open.title = 'Changed in place'
    expect(JSON.parse(movieJson(open)).title).toBe('Changed in place')
  })
})
