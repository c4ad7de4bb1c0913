import type { Movie } from '../core/movie'

/** Movies whose JSON text is kept: about 1 MB of text. */
const CAPACITY = 4096

// Movies are frozen once made, so a movie's JSON text never changes: it is written once and
// reused by the listings that send it again. Bounded, so that sending a large log does not
// leave its whole text behind; once full, nothing more is kept (see indexes/movie-cache.ts).
const texts = new Map<Movie, string>()

/** A movie as JSON text. */
export function movieJson(movie: Movie): string {
  let text = texts.get(movie)
  if (text === undefined) {
    text = JSON.stringify(movie)
    if (Object.isFrozen(movie) && texts.size < CAPACITY) texts.set(movie, text)
  }
  return text
}

/** Movies as a JSON array. */
export function moviesJson(movies: readonly Movie[]): string {
  let text = '['
  for (let index = 0; index < movies.length; index++) {
    if (index > 0) text += ','
    text += movieJson(movies[index] as Movie)
  }
  return `${text}]`
}
