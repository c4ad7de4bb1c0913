import type { NewMovie } from 'movie-log'

/** A valid new movie; `overrides` set fields, and an `undefined` override removes one. */
export function aMovie(overrides: Record<string, unknown> = {}): NewMovie {
  const movie: Record<string, unknown> = {
    title: 'Heat',
    screenedDate: '2024-05-01T20:30:00.000',
    releaseYear: 1995,
    imdbLink: 'https://www.imdb.com/title/tt0113277/',
    notes: 'Seen at the Prince Charles.',
    ...overrides,
  }
  for (const [key, value] of Object.entries(movie)) if (value === undefined) delete movie[key]
  return movie as unknown as NewMovie
}

/** The fields of a stored movie, in the order the log writes them. */
export const MOVIE_FIELDS = ['id', 'title', 'screenedDate', 'releaseYear', 'imdbLink', 'notes']

/** Any value where a `NewMovie` goes, as a JavaScript caller or untyped JSON would pass it. */
export const untyped = (value: unknown): NewMovie => value as NewMovie
