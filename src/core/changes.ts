import { MovieValidationError, NOT_A_JSON_OBJECT, type ValidationIssue } from './errors'
import {
  fieldStructs,
  type Movie,
  type NewMovie,
  resolveLinkAlias,
  unknownFieldIssues,
  withExtras,
} from './movie'
import { cleanTags } from './rating-tags'
import { optional, type, validate } from './superstruct'

/**
 * What `updateMovie` accepts: any of the input fields, by the same rules as an add
 * (`catalogLink` for `imdbLink` too); `null` removes the rating or the tags (a JSON merge
 * patch). `{}` changes nothing.
 *
 * @example
 * ```ts
 * const fix: MovieChanges = { screenedDate: '2024-05-02T21:00:00.000', rating: 8, tags: null }
 * ```
 */
export type MovieChanges = Partial<Omit<NewMovie, 'rating' | 'tags'>> & {
  rating?: number | null
  tags?: string[] | null
}

/** Changes checked and cleaned: `null` says to remove the rating or the tags. */
export type MovieEdit = Partial<Omit<Movie, 'id' | 'rating' | 'tags'>> & {
  rating?: number | null
  tags?: string[] | null
}

// The fields a movie may lack: `null` removes them.
const REMOVABLE = new Set(['rating', 'tags'])

// `type` rather than `object`: unknown keys are reported in full below (see movie.ts).
const movieChanges = type({
  title: optional(fieldStructs.title),
  screenedDate: optional(fieldStructs.screenedDate),
  releaseYear: optional(fieldStructs.releaseYear),
  imdbLink: optional(fieldStructs.imdbLink),
  notes: optional(fieldStructs.notes),
  rating: optional(fieldStructs.rating),
  tags: optional(fieldStructs.tags),
})

/**
 * Checks changes against the field rules and returns them cleaned (title trimmed,
 * `catalogLink` renamed), or throws a `MovieValidationError` naming every problem: a bad
 * value, an unknown field, `id` (a movie keeps its id) and `null` but for the rating and tags
 * (a movie keeps every other field).
 */
export function parseMovieChanges(input: unknown): MovieEdit {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new MovieValidationError([{ path: '', message: NOT_A_JSON_OBJECT }])
  }
  const { fields, issues, linkSentAs } = resolveLinkAlias(input as Record<string, unknown>)
  const removed: MovieEdit = {}
  for (const [key, value] of Object.entries(fields)) {
    if (value === null && REMOVABLE.has(key)) {
      Object.assign(removed, { [key]: null })
      delete fields[key]
    } else if (key === 'id') {
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
  const changes: MovieEdit = removed
  for (const key of ['title', 'screenedDate', 'releaseYear', 'imdbLink', 'notes'] as const) {
    if (value[key] !== undefined) Object.assign(changes, { [key]: value[key] })
  }
  if (value.rating !== undefined) changes.rating = value.rating
  // An empty list removes the tags, as `null` does: a movie has tags or no `tags` key.
  if (value.tags !== undefined) changes.tags = cleanTags(value.tags) ?? null
  return changes
}

/** The movie with `changes` applied, frozen, in the one shape every movie has. */
export function applyChanges(movie: Movie, changes: MovieEdit): Movie {
  const rating = changes.rating === undefined ? movie.rating : changes.rating
  const tags = changes.tags === undefined ? movie.tags : changes.tags
  const next: Movie = {
    id: movie.id,
    title: changes.title ?? movie.title,
    screenedDate: changes.screenedDate ?? movie.screenedDate,
    releaseYear: changes.releaseYear ?? movie.releaseYear,
    imdbLink: changes.imdbLink ?? movie.imdbLink,
    notes: changes.notes ?? movie.notes,
  }
  return Object.freeze(withExtras(next, rating ?? undefined, tags ?? undefined))
}
