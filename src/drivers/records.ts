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
 * Compare-and-set of a movie through keyv, serialised per movie in this process; `kept` runs
 * after the write (a driver's own index).
 */
export function keyvReplace(
  keyv: Keyv,
  scope: object,
  kept: (movie: Movie) => unknown = () => {},
): MovieDriver['replace'] {
  return (expected, next) =>
    serialised(scope, movieKey(next.id), async () => {
      const stored = await keyvMovie(keyv, next.id)
      if (!stored || !sameMovie(stored, expected)) return false
      await setOrThrow(keyv, movieKey(next.id), next)
      await kept(next)
      return true
    })
}
