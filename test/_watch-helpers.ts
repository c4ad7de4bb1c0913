import type { LogChange, MovieLog } from 'movie-log'
import { watchStartOf } from '../src/core/watch'
import { aMovie } from './_movies'

/** A watch read a change at a time, ended by `close()`. */
export interface OpenWatch {
  next(): Promise<LogChange>
  /** The next `count` changes. */
  take(count: number): Promise<LogChange[]>
  /**
   * Begins the watch and resolves where it starts (the latest change before it, or its `after`;
   * `undefined` when the log has kept none): once it resolves, every later change is reported.
   */
  started(): Promise<string | undefined>
  close(): Promise<void>
}

/** Opens `log.watch(options)` as an iterator the test reads at its own pace. */
export function openWatch(log: MovieLog, options: { after?: string } = {}): OpenWatch {
  const stop = new AbortController()
  const iterator = log.watch({ ...options, signal: stop.signal })[Symbol.asyncIterator]()
  const next = async () => {
    const read = await iterator.next()
    if (read.done) throw new Error('the watch ended')
    return read.value
  }
  return {
    next,
    take: async (count) => {
      const changes: LogChange[] = []
      while (changes.length < count) changes.push(await next())
      return changes
    },
    started: async () => {
      const start = watchStartOf(iterator)
      if (!start) throw new Error('this watch cannot say where it starts')
      return start
    },
    close: async () => {
      stop.abort()
      await iterator.return?.()
    },
  }
}

// Adds after which a watch that reported none of them is broken.
const ANCHOR_ADDS = 1000

/**
 * The id of the log's latest change, found without a clock: a watch from now, and movies added
 * until it reports something (an add made before the watch began is not reported; every add
 * after it is, or a reset past it), then one more movie, read up to its change.
 */
export async function latestChangeOf(log: MovieLog): Promise<string> {
  const watch = openWatch(log)
  try {
    const first = watch.next()
    const tick = Symbol('added')
    for (let n = 0; ; n++) {
      // A watch that hears nothing fails here, not in an endless loop that starves the timers.
      if (n === ANCHOR_ADDS) throw new Error(`the watch reported none of ${n} adds`)
      await log.addMovie(aMovie({ title: `Anchor ${n}` }))
      if ((await Promise.race([first, Promise.resolve(tick)])) !== tick) break
      await new Promise((resolve) => setImmediate(resolve))
    }
    const last = await log.addMovie(aMovie({ title: 'Anchor' }))
    for (let change = await first; ; change = await watch.next()) {
      if (change.type === 'added' && change.movie.id === last.id) return change.id
    }
  } finally {
    await watch.close()
  }
}
