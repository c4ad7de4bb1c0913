import type { Movie } from '../../core/movie'
import type { RedisClient } from './connect'
import type { RedisLogKeys } from './keys'
import { SCRIPTS } from './lua'
import { termsLines } from './terms'

// Movies counted in by one script call (and read by one MGET).
const BATCH = 500

export interface RedisCountIn {
  /** Counts in the terms of the movies added without them (`pending`), in batches. */
  pending(): Promise<void>
  /**
   * Counts in one batch of the pending movies (any 500) and answers how many are left: the
   * core calls it before a search or count, a store call per batch, so a backlog of adds costs
   * the read batches each within the store timeout, never one timeout for all (issue 61).
   */
  pendingBatch(): Promise<number>
  /**
   * Answers `read` checked (nil while some movie is not counted); when it is nil, counts in the
   * pending movies, and those an older movie-log left (`older`: the terms, or the search
   * pages' words too), then reads unchecked: every add answered before this read began is
   * counted by then, and an add made meanwhile may or may not be read, as with any store.
   */
  whenCounted<T>(
    read: (checked: boolean) => Promise<T | null>,
    older: 'terms' | 'pages',
  ): Promise<T>
}

/** How one log of the Redis driver counts in its search and statistics terms (redis/terms.ts). */
export function redisCountIn(
  keys: RedisLogKeys,
  call: <T>(work: (client: RedisClient) => Promise<T>) => Promise<T>,
  run: (script: string, keys: string[], args: string[]) => Promise<unknown>,
  parse: (text: string) => Movie,
): RedisCountIn {
  // The prefix of every key of the log: the scripts build the terms' keys from it.
  const prefix = `${keys.tag}:`

  // The ids pending when asked, a batch at a time (SSCAN returns every id there from its first
  // call to its last): an add made meanwhile may be counted too, and a writer faster than this
  // reader does not hold it up.
  const countIds = async (ids: string[]) => {
    const texts = await call((client) => client.mGet(ids.map((id) => keys.movie + id)))
    const args = [prefix]
    for (const [position, id] of ids.entries()) {
      const text = texts[position] ?? null
      args.push(id, text ?? '', text === null ? '' : termsLines(parse(text)))
    }
    await run(SCRIPTS.COUNT_PENDING, [keys.counted], args)
  }
  const pending = async () => {
    let cursor = '0'
    do {
      const scanned = await call((client) => client.sScan(keys.pending, cursor, { COUNT: BATCH }))
      cursor = String(scanned.cursor)
      if (scanned.members.length > 0) await countIds(scanned.members)
    } while (cursor !== '0')
  }
  // Any 500 of them (SRANDMEMBER: as many as there are, up to the count; SSCAN may answer none
  // with more to come), counted in, which takes them out of `pending`.
  const pendingBatch = async () => {
    const ids = await call((client) => client.sRandMemberCount(keys.pending, BATCH))
    if (ids.length === 0) return 0
    await countIds(ids)
    return call((client) => client.sCard(keys.pending))
  }

  // Indexes each movie missing from `set` by `script`: a log written by an older movie-log. Not
  // the pending ones: counted by `pending` (or the next read), they are no older movie-log's.
  const indexAll = async (set: string, script: string, scriptKeys: string[]) => {
    for (;;) {
      const ids = (await run(
        SCRIPTS.UNCOUNTED,
        [keys.ids, set, keys.pending],
        [String(BATCH)],
      )) as string[]
      for (const id of ids) {
        const text = await call((client) => client.get(keys.movie + id))
        if (text === null) continue
        const args = [prefix, id, text, termsLines(parse(text))]
        await run(script, [keys.movie + id, ...scriptKeys], args)
      }
      if (ids.length < BATCH) return
    }
  }
  const olderLeft = async (set: string) =>
    ((await run(SCRIPTS.OLDER_UNCOUNTED, [keys.ids, set, keys.pending], [])) as number) > 0

  return {
    pending,
    pendingBatch,
    whenCounted: async <T>(
      read: (checked: boolean) => Promise<T | null>,
      older: 'terms' | 'pages',
    ) => {
      const first = await read(true)
      if (first !== null) return first
      await pending()
      if (await olderLeft(keys.counted))
        await indexAll(keys.counted, SCRIPTS.COUNT_ONE, [keys.counted])
      // A search page also puts the words of those counted before the ordered sets in them.
      if (older === 'pages' && (await olderLeft(keys.paged)))
        await indexAll(keys.paged, SCRIPTS.PAGE_ONE, [keys.counted, keys.paged])
      return (await read(false)) as T
    },
  }
}
