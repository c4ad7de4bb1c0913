import type Keyv from 'keyv'
import { type Movie, sameMovie } from '../core/movie'
import { type MovieDriver, movieKey, RECORD_KEY_PREFIX } from './types'

type Records = Pick<MovieDriver, 'create' | 'read' | 'write'>

// Per scope (the store a driver writes) and key, the call running now: calls on one key
// within this process run one after another, whichever log on the store makes them.
const running = new WeakMap<object, Map<string, Promise<unknown>>>()

/**
 * Runs `work` after every earlier call on `key` in `scope` has settled. What makes a
 * read-then-write atomic on a store without create-if-absent or compare-and-set of its own,
 * within one process.
 */
export function serialised<T>(scope: object, key: string, work: () => Promise<T>): Promise<T> {
  let locks = running.get(scope)
  if (!locks) {
    locks = new Map()
    running.set(scope, locks)
  }
  const queue = locks
  const run = (queue.get(key) ?? Promise.resolve()).then(work, work)
  queue.set(key, run)
  run.finally(() => queue.get(key) === run && queue.delete(key)).catch(() => {})
  return run
}

/** Throws when keyv answers a write with `false` (keyv 6 does on a store error it reported). */
export async function setOrThrow(keyv: Keyv, key: string, value: unknown, ttlMs?: number) {
  if ((await keyv.set(key, value, ttlMs)) === false) {
    throw new Error(`the store did not write ${key}`)
  }
}

/**
 * Records through keyv's public API, serialised per key in this process: the create-if-absent
 * of a store that has none of its own (a Map, which one process owns; any other keyv store,
 * where claims from several processes may race, as the README says).
 */
export function keyvRecords(keyv: Keyv, scope: object): Records {
  const read = async (key: string) =>
    ((await keyv.get(RECORD_KEY_PREFIX + key)) as string | undefined) ?? undefined
  return {
    create: (key, value, ttlMs) =>
      serialised(scope, RECORD_KEY_PREFIX + key, async () => {
        if ((await read(key)) !== undefined) return false
        await setOrThrow(keyv, RECORD_KEY_PREFIX + key, value, ttlMs)
        return true
      }),
    read,
    write: (key, value, ttlMs) => setOrThrow(keyv, RECORD_KEY_PREFIX + key, value, ttlMs),
  }
}

/** A movie read through keyv by id. */
export async function keyvMovie(keyv: Keyv, id: string): Promise<Movie | undefined> {
  return ((await keyv.get(movieKey(id))) as Movie | undefined) ?? undefined
}

/**
 * Create-if-absent, compare-and-set and compare-and-delete of movies through keyv, serialised
 * per movie in this process: atomic within it, not across processes (a store with no atomic
 * step of its own offers nothing to build that on).
 */
export function keyvMovieWrites(
  keyv: Keyv,
  scope: object,
): Pick<MovieDriver, 'put' | 'replace' | 'remove'> {
  const key = (movie: Movie) => movieKey(movie.id)
  return {
    put: (movie) =>
      serialised(scope, key(movie), async () => {
        if (await keyvMovie(keyv, movie.id)) return false
        await setOrThrow(keyv, key(movie), movie)
        return true
      }),
    replace: (expected, next) =>
      serialised(scope, key(next), async () => {
        const stored = await keyvMovie(keyv, next.id)
        if (!stored || !sameMovie(stored, expected)) return false
        await setOrThrow(keyv, key(next), next)
        return true
      }),
    remove: (expected) =>
      serialised(scope, key(expected), async () => {
        const stored = await keyvMovie(keyv, expected.id)
        if (!stored || !sameMovie(stored, expected)) return false
        if (!(await keyv.delete(key(expected))))
          throw new Error(`the store did not delete ${key(expected)}`)
        return true
      }),
  }
}
