import type { Movie } from './movie'

// Movies are frozen once made, so a movie's JSON text never changes: it is written once per
// movie object and reused by every listing that sends it. Weak: it goes when the movie does.
const texts = new WeakMap<Movie, string>()

/** A movie as JSON text. */
export function movieJson(movie: Movie): string {
  let text = texts.get(movie)
  if (text === undefined) {
    text = JSON.stringify(movie)
    if (Object.isFrozen(movie)) texts.set(movie, text)
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
