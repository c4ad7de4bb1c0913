import type Keyv from 'keyv'
import { byId, type LogDriver, type StoreDriver } from '../../core/driver'
import { type Movie, sameMovie } from '../../core/movie'
import type { StoreAdapter } from '../../core/store-adapter'
import { type ChangeHistory, changeHistory, type NewChange } from '../shared/change-history'
import { classifyNodeFailure } from '../shared/failures'
import {
  type KeyvLayout,
  keyvLayout,
  movieOwnerOf,
  moviesPrefixOf,
  pageOfOwners,
} from '../shared/keys'
import { isPrivateMap, privateMap, storeOf, toKeyv } from '../shared/keyv'
import { searchTerms, tallyTerms } from '../shared/process-terms'
import { deleteOrThrow, setOrThrow } from '../shared/records'
import {
  countedTerms,
  createMemoryIndex,
  drop,
  insert,
  keep,
  type MemoryIndex,
  pageAfter,
  pageByDate,
} from './log-index'
import { dropRecords, memoryRecords } from './records'

// Per Map and namespace, every owner's movies indexed (by the prefix of their keys): logs on one
// Map in this process share them. Read once through keyv (the Map may hold movies already), in
// one pass for every owner; from then on kept by the drivers. An owner with no movies has no
// entry, so a request naming a new owner leaves nothing behind.
const namespaces = new WeakMap<Map<unknown, unknown>, Map<string, Promise<OwnerIndexes>>>()

type OwnerIndexes = Map<string, MemoryIndex>

// What a read of an owner with no movies sees; never written to.
const EMPTY: MemoryIndex = createMemoryIndex([])

/**
 * The Map behind a Keyv in memory: the Map movie-log made its Keyv over, a keyv 5 Keyv's
 * documented `.store`, or the Map inside keyv 6's `KeyvMemoryAdapter` (its `store` getter, public
 * in keyv 6's type declarations, "the underlying store instance", though keyv's README does not
 * describe it). Nothing else of keyv's is read: keys and values go through keyv's own API.
 */
export function memoryMap(keyv: Keyv): Map<unknown, unknown> | undefined {
  const store = storeOf(keyv)
  if (store instanceof Map) return store
  const inner = (store as { store?: unknown } | undefined)?.store
  return inner instanceof Map ? inner : undefined
}

/**
 * A store in memory, one process's Map. Reads come from the movies indexed here (by id, in id
 * order, in date order): a page is a binary search and a slice, with no keyv calls and no
 * copies. Each change is checked and applied to the index in one synchronous step, then
 * written, so create-if-absent and compare-and-set need no lock. Movies are written through
 * keyv to a Map of the caller's (theirs to read, share or back with something that can fail);
 * a Map made here (`memory()`, no store given) is read by nothing but these indexes, so there
 * the index alone holds them, and keyv only the log's records.
 */
export function createMemoryDriver(keyv: Keyv, map: Map<unknown, unknown>): StoreDriver {
  // Keyvs on one Map write the same keys when their namespaces prefix them alike.
  const namespace = keyv.useKeyPrefix === false ? '' : (keyv.namespace ?? '')
  const mirrored = !isPrivateMap(map)
  // Every change, in this process: a Map is one process's store.
  const history = changeHistory(map, namespace)
  let loaded: OwnerIndexes | undefined
  const owners = async (): Promise<OwnerIndexes> => {
    if (loaded) return loaded
    let byNamespace = namespaces.get(map)
    if (!byNamespace) {
      byNamespace = new Map()
      namespaces.set(map, byNamespace)
    }
    const reading = byNamespace.get(namespace) ?? read(keyv, map, namespace)
    byNamespace.set(namespace, reading)
    loaded = await reading
    return loaded
  }
  return {
    kind: 'memory',
    remote: false,
    atomic: true,
    log: (owner) =>
      memoryLog(keyv, map, namespace, keyvLayout(owner), () => loaded ?? owners(), {
        history,
        mirrored,
      }),
    drop: async (owner) => {
      const layout = keyvLayout(owner)
      const indexes = await owners()
      const index = indexes.get(layout.movies)
      indexes.delete(layout.movies)
      history.drop(layout.movies)
      const keys = mirrored ? (index?.added ?? []).map((movie) => layout.movie(movie.id)) : []
      keys.push(...dropRecords(map, namespace, layout))
      if (keys.length > 0) await keyv.deleteMany(keys)
    },
    // Every owner with a movie has an index (read in one pass, then kept): no walk of the store.
    owners: async (after, limit) => {
      const named: string[] = []
      for (const [prefix, index] of await owners()) {
        const owner = index.added.length > 0 ? movieOwnerOf(prefix) : undefined
        if (owner !== undefined) named.push(owner)
      }
      return pageOfOwners(named, after, limit)
    },
    onChange: (owner, wake) => history.listen(keyvLayout(owner).movies, wake),
    // A Map in this process does not fail as a store does: a Map of the caller's that throws a
    // socket or file error (one backed by a file, say) is its store failing; anything else it
    // throws is a bug, and not hidden as a 503.
    classifyFailure: classifyNodeFailure,
    close: async () => {},
  }
}

function memoryLog(
  keyv: Keyv,
  map: Map<unknown, unknown>,
  namespace: string,
  layout: KeyvLayout,
  owners: () => OwnerIndexes | Promise<OwnerIndexes>,
  { history, mirrored }: { history: ChangeHistory; mirrored: boolean },
): LogDriver {
  // The owner's index, looked up at each call (an add may have made it, a drop removed it);
  // once the store's movies are read, at once, without waiting a turn for them.
  const indexOf = (indexes: OwnerIndexes) => indexes.get(layout.movies) ?? EMPTY
  const find = () => {
    const indexes = owners()
    return indexes instanceof Promise ? indexes.then(indexOf) : indexOf(indexes)
  }
  const madeIn = (indexes: OwnerIndexes) => {
    let index = indexes.get(layout.movies)
    if (!index) {
      index = createMemoryIndex([])
      indexes.set(layout.movies, index)
    }
    return index
  }
  // Called in the synchronous step that checked and indexed the change, so the history has the
  // writes in their order. A write the store refused leaves the index as it was, and no change.
  // Into a Map movie-log made, the index is the write: done at once, with nothing to wait for.
  const write = (change: NewChange, undo: () => void): Promise<void> | undefined => {
    if (!mirrored) {
      history.append(layout.movies, change)
      return undefined
    }
    return writeThrough(change, undo)
  }
  const writeThrough = async (change: NewChange, undo: () => void) => {
    const settle = history.begin(layout.movies, change)
    const key = layout.movie(change.movie.id)
    try {
      if (change.type === 'deleted') await deleteOrThrow(keyv, key)
      else await setOrThrow(keyv, key, change.movie)
    } catch (error) {
      undo()
      settle(false)
      throw error
    }
    settle(true)
  }

  return {
    put: async (movie) => {
      const indexes = owners()
      const movies = madeIn(indexes instanceof Promise ? await indexes : indexes)
      if (movies.byId.has(movie.id)) return false
      insert(movies, movie)
      const writing = write({ type: 'added', movie }, () => drop(movies, movie))
      if (writing) await writing
      return true
    },
    get: async (id) => (await find()).byId.get(id),
    listAfter: async (after, limit) => pageAfter(await find(), after, limit),
    listByDate: async (query, limit) => pageByDate(await find(), query, limit),
    search: async (query, limit) => {
      const index = await find()
      return searchTerms(countedTerms(index), query, limit, index.byId)
    },
    tallies: async () => tallyTerms(countedTerms(await find())),
    replace: async (expected, next) => {
      const movies = await find()
      const stored = movies.byId.get(next.id)
      if (!stored || !sameMovie(stored, expected)) return false
      keep(movies, next)
      const writing = write({ type: 'updated', movie: next }, () => keep(movies, stored))
      if (writing) await writing
      return true
    },
    remove: async (expected) => {
      const movies = await find()
      const stored = movies.byId.get(expected.id)
      if (!stored || !sameMovie(stored, expected)) return false
      drop(movies, stored)
      const writing = write({ type: 'deleted', movie: { id: stored.id } }, () =>
        keep(movies, stored),
      )
      if (writing) await writing
      return true
    },
    changesAfter: async (after, limit) => history.read(layout.movies, after, limit),
    latestChange: async () => history.latest(layout.movies),
    ...memoryRecords(keyv, map, namespace, layout),
  }
}

/**
 * The movies a Map holds already, read through keyv in one pass and indexed per owner (by the
 * prefix of their keys). A store that failed while they were read is asked again next time.
 */
function read(keyv: Keyv, map: Map<unknown, unknown>, namespace: string): Promise<OwnerIndexes> {
  const order = (async () => {
    const byOwner = new Map<string, Movie[]>()
    for await (const [key, value] of entries(keyv)) {
      const prefix = typeof key === 'string' ? moviesPrefixOf(key) : undefined
      if (prefix === undefined || !value) continue
      const movies = byOwner.get(prefix) ?? []
      movies.push(value as Movie)
      byOwner.set(prefix, movies)
    }
    const indexes: OwnerIndexes = new Map()
    for (const [prefix, movies] of byOwner)
      indexes.set(prefix, createMemoryIndex(movies.sort(byId)))
    return indexes
  })()
  order.catch(() => {
    const byNamespace = namespaces.get(map)
    if (byNamespace?.get(namespace) === order) byNamespace.delete(namespace)
  })
  return order
}

/**
 * The namespace's entries, keys without keyv's prefix: keyv's `iterator()`, called as both
 * majors document it (keyv 5's type asks for an argument its iterator does not read).
 */
function entries(keyv: Keyv): AsyncGenerator<[unknown, unknown]> {
  return (keyv.iterator as unknown as () => AsyncGenerator<[unknown, unknown]>)()
}

/**
 * A store in this process's memory for `createMovieLog`. Gone when the process ends. Without a
 * Map, the movies are kept once, in the log's indexes; with a `Map` of yours (to share between
 * logs, or to read yourself through keyv), each movie is also written into it through keyv.
 *
 * @example
 * ```ts
 * import { createMovieLog } from 'movie-log'
 * import { memory } from 'movie-log/memory'
 *
 * const log = createMovieLog(memory())
 * ```
 */
export function memory(map?: Map<unknown, unknown>): StoreAdapter {
  const store = map ?? privateMap()
  return {
    kind: 'memory',
    remote: false,
    open: async ({ namespace }) => {
      const keyv = toKeyv(store, namespace)
      return createMemoryDriver(keyv, memoryMap(keyv) as Map<unknown, unknown>)
    },
  }
}
