import { sameMovie } from '../core/movie'
import type { Movie, MovieLog } from '../index'
import { moviePages } from './pages'

/** How the target of a copy compares with its source. */
export interface Verification {
  /** Movies in the source. */
  source: number
  /** Source movies found in the target with the same six fields. */
  matching: number
  /** Source movies the target lacks. */
  missing: number
  /** Source movies the target holds with other content. */
  different: number
  /** Movies in the target that the source does not have (kept, not counted as a failure). */
  extra: number
}

/**
 * Walks both logs side by side in id order, one page of each in memory: every source movie
 * must be in the target, field for field.
 */
export async function verifyCopy(
  source: MovieLog,
  target: MovieLog,
  onMovie: (checked: number) => void = () => {},
): Promise<Verification> {
  const result: Verification = { source: 0, matching: 0, missing: 0, different: 0, extra: 0 }
  const targets = movies(target)
  let next = await targets.next()
  for await (const movie of movies(source)) {
    result.source += 1
    while (!next.done && next.value.id < movie.id) {
      result.extra += 1
      next = await targets.next()
    }
    if (next.done || next.value.id !== movie.id) result.missing += 1
    else {
      if (sameMovie(next.value, movie)) result.matching += 1
      else result.different += 1
      next = await targets.next()
    }
    onMovie(result.source)
  }
  for (; !next.done; next = await targets.next()) result.extra += 1
  return result
}

async function* movies(log: MovieLog): AsyncGenerator<Movie> {
  for await (const page of moviePages(log)) yield* page
}
