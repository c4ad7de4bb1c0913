import { byCodePoint, SOLE_OWNER } from '../../core/driver'

/**
 * Where one owner's log lives inside a keyv namespace (the memory and scan drivers): the one
 * diary of `createMovieLog` at `movie:<id>` and `idempotency:<key>`, as it always was; another
 * owner's under `owner:<owner, URI-encoded>:`, so no owner's keys begin another's (`alice`
 * and `alice2`, or a name with `:` in it).
 */
export interface KeyvLayout {
  /** What every key of the owner's movies begins with. */
  movies: string
  /** What every key of the owner's records begins with. */
  records: string
  movie(id: string): string
  record(key: string): string
}

export function keyvLayout(owner: string): KeyvLayout {
  const prefix = owner === SOLE_OWNER ? '' : `owner:${encodeURIComponent(owner)}:`
  const movies = `${prefix}movie:`
  const records = `${prefix}idempotency:`
  return { movies, records, movie: (id) => movies + id, record: (key) => records + key }
}

/** The movies prefix of the owner a keyv key belongs to, or `undefined` for a key of no movie. */
export function moviesPrefixOf(key: string): string | undefined {
  if (key.startsWith('movie:')) return 'movie:'
  const owned = /^owner:[^:]*:movie:/.exec(key)
  return owned?.[0]
}

const OWNER_KEY = /^owner:([^:]*):movie:/

/**
 * The owner whose movie is stored under `key` (`owner:<owner, URI-encoded>:movie:<id>`), or
 * `undefined` for any other key: a record, or a movie of the one diary.
 */
export function movieOwnerOf(key: string): string | undefined {
  const encoded = OWNER_KEY.exec(key)?.[1]
  return encoded === undefined ? undefined : decodeURIComponent(encoded)
}

/** A page of `owners` (each once), in code-point order, after `after`, at most `limit`. */
export function pageOfOwners(
  owners: Iterable<string>,
  after: string | undefined,
  limit = Number.POSITIVE_INFINITY,
): string[] {
  const later = [...new Set(owners)].filter(
    (owner) => after === undefined || byCodePoint(owner, after) > 0,
  )
  return later.sort(byCodePoint).slice(0, limit)
}
