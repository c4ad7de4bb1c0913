import { optional, type, validate } from 'superstruct'
import { MovieValidationError, NOT_A_JSON_OBJECT, type ValidationIssue } from './errors'
import {
  fieldStructs,
  type Movie,
  type NewMovie,
  resolveLinkAlias,
  unknownFieldIssues,
} from './movie'

/**
 * What `updateMovie` accepts: any of the five input fields, by the same rules as an add
 * (`catalogLink` for `imdbLink` too). `{}` changes nothing.
 *
 * @example
 * ```ts
 * const fix: MovieChanges = { screenedDate: '2024-05-02T21:00:00.000' }
 * ```
 */
export type MovieChanges = Partial<NewMovie>

// `type` rather than `object`: unknown keys are reported in full below (see movie.ts).
const movieChanges = type({
  title: optional(fieldStructs.title),
  screenedDate: optional(fieldStructs.screenedDate),
  releaseYear: optional(fieldStructs.releaseYear),
  imdbLink: optional(fieldStructs.imdbLink),
  notes: optional(fieldStructs.notes),
})

/**
 * Checks changes against the field rules and returns them cleaned (title trimmed,
 * `catalogLink` renamed), or throws a `MovieValidationError` naming every problem: a bad
 * value, an unknown field, `id` (a movie keeps its id) and `null` (a movie keeps every field).
 */
export function parseMovieChanges(input: unknown): Partial<Omit<Movie, 'id'>> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new MovieValidationError([{ path: '', message: NOT_A_JSON_OBJECT }])
  }
  const { fields, issues, linkSentAs } = resolveLinkAlias(input as Record<string, unknown>)
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'id') {
      issues.push({ path: 'id', message: 'cannot be changed: a movie keeps its id' })
      delete fields.id
    } else if (value === null) {
      const path = key === 'imdbLink' ? linkSentAs : key
      issues.push({ path, message: 'cannot be null: a movie keeps every field, send a value' })
      delete fields[key]
    }
  }
  const [error, value] = validate(fields, movieChanges, { coerce: true })
  for (const failure of error?.failures() ?? []) {
    const path = failure.path.join('.')
    issues.push({ path: path === 'imdbLink' ? linkSentAs : path, message: failure.message })
  }
  issues.push(...unknownFieldIssues(Object.keys(fields)))
  if (issues.length > 0 || !value) throw new MovieValidationError(issues as ValidationIssue[])
  const changes: Partial<Omit<Movie, 'id'>> = {}
  for (const key of ['title', 'screenedDate', 'releaseYear', 'imdbLink', 'notes'] as const) {
    if (value[key] !== undefined) Object.assign(changes, { [key]: value[key] })
  }
  return changes
}

/** The movie with `changes` applied, frozen, in the one shape every movie has. */
export function applyChanges(movie: Movie, changes: Partial<Omit<Movie, 'id'>>): Movie {
  return Object.freeze({
    id: movie.id,
    title: changes.title ?? movie.title,
    screenedDate: changes.screenedDate ?? movie.screenedDate,
    releaseYear: changes.releaseYear ?? movie.releaseYear,
    imdbLink: changes.imdbLink ?? movie.imdbLink,
    notes: changes.notes ?? movie.notes,
  })
}
