import type Keyv from 'keyv'
import type { LogDriver } from '../../core/driver'
import { type Movie, sameMovie } from '../../core/movie'
import type { NewChange } from './change-history'
import type { KeyvLayout } from './keys'

type Records = Pick<LogDriver, 'create' | 'read' | 'write'>

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

/** Deletes a key, throwing when keyv says it did not. */
export async function deleteOrThrow(keyv: Keyv, key: string): Promise<void> {
  if (!(await keyv.delete(key))) throw new Error(`the store did not delete ${key}`)
}

/**
 * Records through keyv's public API, serialised per key in this process: the create-if-absent
 * of a store that has none of its own (a Map, which one process owns; any other keyv store,
 * where claims from several processes may race, as the README says).
 */
export function keyvRecords(keyv: Keyv, scope: object, layout: KeyvLayout): Records {
  const read = async (key: string) =>
    ((await keyv.get(layout.record(key))) as string | undefined) ?? undefined
  return {
    create: (key, value, ttlMs) =>
      serialised(scope, layout.record(key), async () => {
        if ((await read(key)) !== undefined) return false
        await setOrThrow(keyv, layout.record(key), value, ttlMs)
        return true
      }),
    read,
    write: (key, value, ttlMs) => setOrThrow(keyv, layout.record(key), value, ttlMs),
  }
}

/** A movie read through keyv by its key. */
export async function keyvMovie(keyv: Keyv, key: string): Promise<Movie | undefined> {
  return ((await keyv.get(key)) as Movie | undefined) ?? undefined
}

/**
 * Create-if-absent, compare-and-set and compare-and-delete of movies through keyv, serialised
 * per movie in this process: atomic within it, not across processes (a store with no atomic
 * step of its own offers nothing to build that on). `changed` hears of each write once it is
 * stored, before the next write of the same movie starts.
 */
export function keyvMovieWrites(
  keyv: Keyv,
  scope: object,
  layout: KeyvLayout,
  changed: (change: NewChange) => void = () => {},
): Pick<LogDriver, 'put' | 'replace' | 'remove'> {
  return {
    put: (movie) => {
      const key = layout.movie(movie.id)
      return serialised(scope, key, async () => {
        if (await keyvMovie(keyv, key)) return false
        await setOrThrow(keyv, key, movie)
        changed({ type: 'added', movie })
        return true
      })
    },
    replace: (expected, next) => {
      const key = layout.movie(next.id)
      return serialised(scope, key, async () => {
        const stored = await keyvMovie(keyv, key)
        if (!stored || !sameMovie(stored, expected)) return false
        await setOrThrow(keyv, key, next)
        changed({ type: 'updated', movie: next })
        return true
      })
    },
    remove: (expected) => {
      const key = layout.movie(expected.id)
      return serialised(scope, key, async () => {
        const stored = await keyvMovie(keyv, key)
        if (!stored || !sameMovie(stored, expected)) return false
        await deleteOrThrow(keyv, key)
        changed({ type: 'deleted', movie: { id: stored.id } })
        return true
      })
    },
  }
}
