import { applyChanges, type MovieChanges, parseMovieChanges } from './changes'
import type { LogDriver } from './driver'
import { MovieNotFoundError, PreconditionFailedError } from './errors'
import { markDeleted } from './idempotency'
import { type Movie, sameMovie } from './movie'
import { versionOf } from './version'

/**
 * Options of `updateMovie` and `deleteMovie`.
 *
 * @example
 * ```ts
 * await log.deleteMovie(movie.id, { ifMatch: versionOf(movie) })
 * ```
 */
export interface ChangeOptions {
  /**
   * Change the movie only if it is still this version (`versionOf`, an ETag's tag, quoted or
   * not; several: any of them), or `'*'`: only if it exists. Otherwise nothing is changed and
   * `PreconditionFailedError` is thrown.
   */
  ifMatch?: string | readonly string[]
}

// Without ifMatch a change is re-applied to the movie that beat it; this many times at most.
const ATTEMPTS = 16

/** Applies `changes` with a compare-and-set, so no concurrent change is lost. */
export async function updateMovie(
  driver: LogDriver,
  id: string,
  changes: MovieChanges,
  { ifMatch }: ChangeOptions,
): Promise<Movie> {
  const fields = parseMovieChanges(changes)
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await matching(driver, id, ifMatch)
    if (!current) throw new MovieNotFoundError(id)
    const next = applyChanges(current, fields)
    if (sameMovie(current, next)) return current
    if (await driver.replace(current, next)) return next
    if (isSpecific(ifMatch)) throw new PreconditionFailedError(id)
  }
  throw new PreconditionFailedError(id)
}

/** Deletes with a compare-and-delete; false when the movie was not there. */
export async function deleteMovie(
  driver: LogDriver,
  id: string,
  { ifMatch }: ChangeOptions,
): Promise<boolean> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const current = await matching(driver, id, ifMatch)
    if (!current) return false
    // First, so that an add retried with its idempotency key cannot bring the movie back.
    await markDeleted(driver, id)
    if (await driver.remove(current)) return true
    if (isSpecific(ifMatch)) throw new PreconditionFailedError(id)
  }
  throw new PreconditionFailedError(id)
}

/**
 * The movie, if `ifMatch` lets the change go ahead; `undefined` when it is missing and no
 * `ifMatch` was given. A missing movie with an `ifMatch` fails the precondition (RFC 9110).
 */
async function matching(
  driver: LogDriver,
  id: string,
  ifMatch: ChangeOptions['ifMatch'],
): Promise<Movie | undefined> {
  const current = await driver.get(id)
  if (ifMatch === undefined) return current
  if (!current) throw new PreconditionFailedError(id)
  const tags = (typeof ifMatch === 'string' ? [ifMatch] : ifMatch).map(unquoted)
  if (tags.includes('*') || tags.includes(versionOf(current))) return current
  throw new PreconditionFailedError(id)
}

function isSpecific(ifMatch: ChangeOptions['ifMatch']): boolean {
  if (ifMatch === undefined) return false
  return !(typeof ifMatch === 'string' ? [ifMatch] : ifMatch).map(unquoted).includes('*')
}

function unquoted(tag: string): string {
  return tag.length >= 2 && tag.startsWith('"') && tag.endsWith('"') ? tag.slice(1, -1) : tag
}
