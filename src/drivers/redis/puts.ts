/**
 * Adds that arrive together, stored together: the puts of one owner made in one turn of the
 * event loop go to Redis as one script call (PUTS), where each would be a command of its own.
 * Each command costs the process more than the movie it carries (encoding, its reply, its
 * promise), and where writes wait for replicas, a batch waits once.
 */
import { setImmediate } from 'node:timers'
import type { Movie } from '../../core/movie'
import { dateMember, type RedisLogKeys } from './keys'
import { PUTS } from './scripts'

/** The most movies one script call stores: bounds how long it holds Redis's one thread. */
const MOST_PER_CALL = 256

/** One movie to store, and how: its owner's keys, and whether the owner is listed already. */
export interface PendingPut {
  keys: RedisLogKeys
  owner: string
  listed: boolean
  movie: Movie
}

/** What the batches call on: the driver's script runner and its writes elsewhere. */
export interface RedisPutsOptions {
  /** Runs PUTS with no wait for replicas (the batch waits once, for its stored movies only). */
  run(script: string, keys: string[], args: string[]): Promise<unknown>
  /** The namespace's changed channel, which PUTS publishes the owner on. */
  changedChannel: string
  /** Adds the owner to the owners set (waiting for replicas, if the driver does). */
  list(owner: string): Promise<unknown>
  /** Waits for replicas to have the writes so far to `key`'s slot; absent when none are asked. */
  replicated?: (key: string) => Promise<unknown>
}

type Waiting = { put: PendingPut; done: (stored: boolean) => void; fail: (error: unknown) => void }

/**
 * `put` resolves true when its movie was stored, false when its id was taken. An owner's first
 * movies are stored once the owner is listed (one write for the batch). A call that fails
 * (Redis away, the script refused) fails every put it carried and no other; movies a script
 * stored before it failed part-way (a damaged key) stay stored, and a retry with its
 * Idempotency-Key finds them.
 * A replica wait that falls short fails the stored movies only.
 */
export function createRedisPuts(options: RedisPutsOptions): (put: PendingPut) => Promise<boolean> {
  // By owner, and apart for puts that know the owner listed: the script takes one answer.
  let waiting = new Map<string, Waiting[]>()
  let scheduled = false

  const send = async (batch: Waiting[]) => {
    const { keys, owner, listed } = (batch[0] as Waiting).put
    let results: number[]
    try {
      const movieKeys: string[] = []
      const args = [listed ? '1' : '0', options.changedChannel, owner, `${keys.tag}:`]
      for (const { put } of batch) {
        movieKeys.push(keys.movie + put.movie.id)
        args.push(JSON.stringify(put.movie), put.movie.id, dateMember(put.movie))
      }
      const written = [keys.ids, keys.dates, keys.changes, keys.history, ...movieKeys]
      results = (await options.run(PUTS, written, args)) as number[]
      if (!Array.isArray(results) || results.length !== batch.length) {
        throw new Error(`PUTS answered ${JSON.stringify(results)} for ${batch.length} movies`)
      }
    } catch (error) {
      for (const each of batch) each.fail(error)
      return
    }
    const stored = batch.filter((_, at) => results[at] === 1)
    const unlisted = batch.filter((_, at) => results[at] === 2)
    for (const [at, each] of batch.entries()) if (results[at] === 0) each.done(false)
    if (unlisted.length > 0) void relist(owner, unlisted)
    if (stored.length === 0) return
    try {
      await options.replicated?.(keys.ids)
    } catch (error) {
      for (const each of stored) each.fail(error)
      return
    }
    for (const each of stored) each.done(true)
  }

  // An owner's first movies: the owner listed once for them all, then put again as listed.
  const relist = async (owner: string, batch: Waiting[]) => {
    try {
      await options.list(owner)
    } catch (error) {
      for (const each of batch) each.fail(error)
      return
    }
    for (const { put, done, fail } of batch) enqueue({ ...put, listed: true }, done, fail)
  }

  const flush = () => {
    scheduled = false
    const batches = waiting
    waiting = new Map()
    for (const batch of batches.values()) {
      for (let from = 0; from < batch.length; from += MOST_PER_CALL) {
        void send(batch.slice(from, from + MOST_PER_CALL))
      }
    }
  }

  const enqueue = (put: PendingPut, done: Waiting['done'], fail: Waiting['fail']) => {
    const name = `${put.listed ? '1' : '0'}${put.keys.tag}`
    const batch = waiting.get(name)
    if (batch) batch.push({ put, done, fail })
    else waiting.set(name, [{ put, done, fail }])
    if (scheduled) return
    scheduled = true
    // After the I/O of this turn: the requests that arrived with this one join its call.
    setImmediate(flush)
  }

  return (put) => new Promise((done, fail) => enqueue(put, done, fail))
}
