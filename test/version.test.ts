import { type Movie, versionOf } from 'movie-log'
import { describe, expect, it } from 'vitest'

const movie: Movie = {
  id: '01a22068-aeb5-7700-b779-ce1467c2308d',
  title: 'Heat',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
  notes: 'The diner scene.',
}

describe('versionOf', () => {
  it('gives the tag every version has given this movie: clients compute tags too', () => {
    // A page or client of another version sends tags it computed itself in If-Match.
    expect(versionOf(movie)).toBe('d4d6c111f49ba840')
  })

  it('reads the six fields alone, in any key order', () => {
    const { notes, id, ...rest } = movie
    const reordered = { notes, ...rest, id, extra: 'not a field' } as Movie
    expect(versionOf(reordered)).toBe(versionOf(movie))
  })

  it('tells apart movies whose field texts run together alike', () => {
    // Each pair reads the same characters in the same order, split at another place.
    const pairs: [Partial<Movie>, Partial<Movie>][] = [
      [
        { imdbLink: `${movie.imdbLink}a`, notes: '' },
        { imdbLink: movie.imdbLink, notes: 'a' },
      ],
      [
        { id: 'ab', title: 'c' },
        { id: 'a', title: 'bc' },
      ],
    ]
    for (const [one, other] of pairs) {
      expect(versionOf({ ...movie, ...one })).not.toBe(versionOf({ ...movie, ...other }))
    }
  })
})
