/**
 * Adds that arrive together, stored together: the puts of one owner made in one turn of the
 * event loop go to Redis as one script call (PUTS), where each would be a command of its own.
 * Each command costs the process more than the movie it carries (encoding, its reply, its
 * promise), and on a cluster each write waits for its replicas: a batch waits once.
 */
import { setImmediate } from 'node:timers'
import type { Movie } from '../core/movie'
import { dateMember, type RedisLogKeys } from './redis-keys'
import { PUTS } from './redis-scripts'

/** The most movies one script call stores: bounds how long it holds Redis's one thread. */
const MOST_PER_CALL = 256

/** One movie to store, and how: its owner's keys, and whether the owner is listed already. */
export interface PendingPut {
  keys: RedisLogKeys
  owner: string
  listed: boolean
  movie: Movie
}

/** Runs a write script; `wrote` tells from its answer whether anything was written. */
export type RunWrite = (
  script: string,
  keys: string[],
  args: string[],
  wrote: (result: unknown) => boolean,
) => Promise<unknown>

type Waiting = PendingPut & { done: (result: number) => void; fail: (error: unknown) => void }

/**
 * `put` resolves with what PUTS answered for its movie: 1 stored, 0 its id was taken, 2 the
 * owner must be listed first. A call that fails (Redis away, the script refused) fails every
 * put it carried, and no other.
 */
export function createRedisPuts(
  run: RunWrite,
  changedChannel: string,
): (put: PendingPut) => Promise<number> {
  // By owner, and apart for puts that know the owner listed: the script takes one answer.
  let waiting = new Map<string, Waiting[]>()
  let scheduled = false

  const send = async (batch: Waiting[]) => {
    const [{ keys, owner, listed }] = batch as [Waiting]
    const movieKeys: string[] = []
    const args = [listed ? '1' : '0', changedChannel, owner, `${keys.tag}:`]
    for (const { movie } of batch) {
      movieKeys.push(keys.movie + movie.id)
      args.push(JSON.stringify(movie), movie.id, dateMember(movie))
    }
    const written = [keys.ids, keys.dates, keys.changes, keys.history, ...movieKeys]
    try {
      const results = (await run(PUTS, written, args, storedAny)) as number[]
      for (const [at, each] of batch.entries()) each.done(results[at] as number)
    } catch (error) {
      for (const each of batch) each.fail(error)
    }
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

  return (put) =>
    new Promise((done, fail) => {
      const name = `${put.listed ? '1' : '0'}${put.keys.tag}`
      const batch = waiting.get(name)
      if (batch) batch.push({ ...put, done, fail })
      else waiting.set(name, [{ ...put, done, fail }])
      if (scheduled) return
      scheduled = true
      // After the I/O of this turn: the requests that arrived with this one join its call.
      setImmediate(flush)
    })
}

const storedAny = (result: unknown) => Array.isArray(result) && result.includes(1)
