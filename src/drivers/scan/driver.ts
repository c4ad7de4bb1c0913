import type Keyv from 'keyv'
import { byDate, byId, isAfter, type LogDriver, type StoreDriver } from '../../core/driver'
import type { StoreFailure } from '../../core/errors'
import type { Movie } from '../../core/movie'
import { answers, movieWords } from '../../core/words'
import { type ChangeHistory, changeHistory } from '../shared/change-history'
import { classifyNodeFailure } from '../shared/failures'
import { type KeyvLayout, keyvLayout, movieOwnerOf, pageOfOwners } from '../shared/keys'
import { countTerms, createMemoryTerms, tallyTerms } from '../shared/process-terms'
import { keyvMovie, keyvMovieWrites, keyvRecords } from '../shared/records'
import { classifyRedisFailure } from '../shared/redis-failures'
import { classifyPostgresFailure, classifySqliteFailure } from '../shared/sql-failures'

/** What the scan driver lacks, said once per store when a log is made on it. */
export const SCAN_LIMITS =
  'every page reads the whole store (so does every search and statistic), create-if-absent and compare-and-set (Idempotency-Keys, If-Match) hold within this process only, and live changes are those made in this process'

/**
 * Any keyv store that can iterate, through keyv's public API alone: every listing walks the
 * whole namespace and sorts, because each backend iterates in its own order. Correct
 * everywhere, and O(n) per page, in either order. Its create-if-absent and compare-and-set
 * hold within one process only: the store offers no atomic step to build them on. Its change
 * history is in this process too (the latest 1,000 changes per log, as memory keeps them):
 * a watch sees the changes made through this process, none made by another.
 */
export function createScanDriver(keyv: Keyv): StoreDriver {
  const scope = (keyv.store as object | undefined) ?? keyv
  const history = changeHistory(scope, keyv.useKeyPrefix === false ? '' : (keyv.namespace ?? ''))
  return {
    kind: 'keyv',
    remote: true,
    atomic: false,
    log: (owner) => scanLog(keyv, scope, keyvLayout(owner), history),
    drop: async (owner) => {
      const layout = keyvLayout(owner)
      const keys = await scanKeys(
        keyv,
        (key) => key.startsWith(layout.movies) || key.startsWith(layout.records),
      )
      if (keys.length > 0) await keyv.delete(keys)
      history.drop(layout.movies)
    },
    owners: async (after, limit) => {
      const keys = await scanKeys(keyv, (key) => movieOwnerOf(key) !== undefined)
      return pageOfOwners(
        keys.map((key) => movieOwnerOf(key) as string),
        after,
        limit,
      )
    },
    onChange: (owner, wake) => history.listen(keyvLayout(owner).movies, wake),
    classifyFailure: classifyKeyvFailure,
    close: async () => {},
  }
}

/**
 * The scan's classifier: a keyv adapter passes on its client's errors, so those of the clients
 * keyv's own adapters use (node-sqlite3 for @keyv/sqlite, pg for @keyv/postgres, node-redis for
 * @keyv/redis) and Node's socket and file errors are the store failing; anything else an
 * adapter throws is a bug, answered 500 and logged.
 *
 * @example
 * ```ts
 * classifyKeyvFailure(Object.assign(new Error('disk full'), { code: 'SQLITE_FULL' }))
 * // { reason: 'disk-full', code: 'SQLITE_FULL' }
 * classifyKeyvFailure(new Error('adapter bug')) // undefined
 * ```
 */
export function classifyKeyvFailure(error: unknown): StoreFailure | undefined {
  return (
    classifySqliteFailure(error) ??
    classifyPostgresFailure(error) ??
    classifyRedisFailure(error) ??
    classifyNodeFailure(error)
  )
}

function scanLog(keyv: Keyv, scope: object, layout: KeyvLayout, history: ChangeHistory): LogDriver {
  const movies = async () =>
    (await scan(keyv, (key) => key.startsWith(layout.movies))).map(([, value]) => value as Movie)
  return {
    get: (id) => keyvMovie(keyv, layout.movie(id)),
    listAfter: async (after, limit) =>
      (await movies())
        .filter((movie) => after === undefined || movie.id > after)
        .sort(byId)
        .slice(0, limit),
    listByDate: async (query, limit) => {
      const found = (await movies()).filter(
        (movie) =>
          movie.screenedDate >= query.from &&
          movie.screenedDate <= query.to &&
          isAfter(query, movie),
      )
      found.sort(byDate)
      if (query.descending) found.reverse()
      return found.slice(0, limit)
    },
    // No index to keep in a store with no atomic step: every search and count reads the log.
    search: async (query, limit) =>
      (await movies()).filter((movie) => answers(movieWords(movie), query)).slice(0, limit),
    tallies: async () => {
      const terms = createMemoryTerms()
      for (const movie of await movies()) countTerms(terms, movie, 1)
      return tallyTerms(terms)
    },
    ...keyvMovieWrites(keyv, scope, layout, (change) => history.append(layout.movies, change)),
    changesAfter: async (after, limit) => history.read(layout.movies, after, limit),
    latestChange: async () => history.latest(layout.movies),
    ...keyvRecords(keyv, scope, layout),
  }
}

async function scanKeys(keyv: Keyv, wanted: (key: string) => boolean): Promise<string[]> {
  return (await scan(keyv, wanted)).map(([key]) => key)
}

/** The entries of the namespace whose keys `wanted` picks. */
async function scan(keyv: Keyv, wanted: (key: string) => boolean): Promise<[string, unknown][]> {
  const entries: [string, unknown][] = []
  // @keyv/postgres ends its iterator early on a failed query and only emits the error.
  let failure: unknown
  const onError = (error: unknown) => {
    failure ??= error
  }
  keyv.on('error', onError)
  try {
    // Called as both majors document it: keyv 5's type asks for an argument (the namespace) that
    // its iterator does not read; either knows its namespace (keyv 6's needs its `this`).
    const iterate = keyv.iterator as unknown as () => AsyncGenerator<[unknown, unknown]>
    for await (const [key, value] of iterate.call(keyv)) {
      if (typeof key === 'string' && wanted(key)) entries.push([key, value])
    }
  } finally {
    keyv.off('error', onError)
  }
  if (failure !== undefined) throw failure
  return entries
}
