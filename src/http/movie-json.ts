import type { Movie } from '../core/movie'

// A stored movie is frozen, and an edit stores a new object: the JSON text of one movie object
// never changes. So it is kept beside the object, for as long as something else keeps the
// object (the store's map, a driver's cache of what it read): a WeakMap holds no movie alive,
// is bounded by the movies alive, and a changed movie, being a new object, never gets old text.
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
