import {
  type ChangeRead,
  type DateQuery,
  type LogDriver,
  SOLE_OWNER,
  type StoredChange,
} from '../../core/driver'
import { type Movie, sameMovie } from '../../core/movie'
import type { Repeat } from '../../core/tallies'
import { afterPrefix } from '../../core/words'
import type { OwnerCaches } from '../shared/counted-cache'
import type { MovieCache } from '../shared/movie-cache'
import type { RedisClient } from './connect'
import { redisCountIn } from './count-in'
import { dateMember, redisChangedChannel, redisLogKeys } from './keys'
import { SCRIPTS } from './lua'
import type { PendingPut } from './puts'
import { termsLines } from './terms'

/** What every log of one Redis driver shares: the client, its scripts, its caches. */
export interface RedisShared {
  namespace: string
  /** Runs `work` on the client, once the server's version is known to be supported. */
  call<T>(work: (client: RedisClient) => Promise<T>): Promise<T>
  /** Runs a script of redis/lua by its SHA1, sending its text only when Redis lacks it. */
  run(script: string, keys: string[], args: string[]): Promise<unknown>
  /** Stores a movie with the others put in the same turn (redis/puts.ts): false if its id was taken. */
  put(put: PendingPut): Promise<boolean>
  /** Runs a write to `key`'s slot, acknowledged once the replicas the driver waits for have it. */
  written<T>(key: string, work: (client: RedisClient) => Promise<T>): Promise<T>
  /** Movies by id, per owner, good while the owner's changes count holds. */
  caches: OwnerCaches<Movie>
  /** Movies by the exact text stored: an edit elsewhere leaves the others' objects reusable. */
  texts: MovieCache
  /** Wakes this process's watchers of an owner at once, after a write of its log. */
  wake(owner: string): void
}

/** A flat HGETALL answer (field, value, field, value, ...) as pairs. */
function pairs(flat: string[]): [string, string][] {
  const found: [string, string][] = []
  for (let at = 0; at + 1 < flat.length; at += 2)
    found.push([flat[at] as string, flat[at + 1] as string])
  return found
}

// A stream entry id, as XADD makes them: milliseconds and a sequence number.
const STREAM_ID = /^(0|[1-9][0-9]{0,15})-(0|[1-9][0-9]{0,15})$/

// Most members a page script reads at once (Lua's unpack has a limit of its own).
const SCRIPT_PAGE = 1000
// '}' follows '|': below it are all members of dates up to and including this one.
const throughDate = (date: string) => `(${date}}`

/**
 * One owner's log on Redis: two sorted sets beside the movies, of ids (the order added) and of
 * `screenedDate|id` (the date order), both by lexical order. Scripts change a movie and its
 * index entries in one step, so concurrent writers from many processes never disagree; a page
 * is one script: its ZRANGE, the owner's changes count, and the movies' texts only when an
 * edit or delete since this process last listed the owner may have left its movies old.
 * Made per call of `log(owner)`: it holds the owner's key names and nothing else.
 */
export function redisLog(shared: RedisShared, owner: string): LogDriver {
  const keys = redisLogKeys(shared.namespace, owner)
  const { caches, texts, call, run } = shared
  const changed = [redisChangedChannel(shared.namespace), owner]
  const woken = (written: boolean) => {
    if (written) shared.wake(owner)
    return written
  }
  const toChange = ([id, fields]: [string, string[]]): StoredChange => {
    const field: Record<string, string> = {}
    for (let at = 0; at < fields.length; at += 2)
      field[fields[at] as string] = fields[at + 1] as string
    if (field.type === 'deleted') return { id, type: 'deleted', movie: { id: field.id as string } }
    return { id, type: field.type as 'added' | 'updated', movie: parse(field.movie as string) }
  }

  const parse = (text: string) => texts.get(text) ?? texts.keep(text, JSON.parse(text) as Movie)

  /** The stored text of a movie, when the movie still equals `expected`. */
  const current = async (expected: Movie) => {
    const stored = await call((client) => client.get(keys.movie + expected.id))
    return stored !== null && sameMovie(parse(stored), expected) ? stored : undefined
  }

  async function page(index: string, start: string, stop: string, limit: number, rev: boolean) {
    const idAt = index === keys.dates ? 25 : 1
    const movies: Movie[] = []
    while (movies.length < limit) {
      const count = Math.min(limit - movies.length, SCRIPT_PAGE)
      const args = [start, stop, String(count), rev ? '1' : '0', keys.movie, String(idAt)]
      const [members, seen, values] = (await run(
        SCRIPTS.PAGE,
        [index, keys.changes],
        [...args, caches.count(owner)],
      )) as [string[], string, (string | null)[] | undefined]
      const ids = members.map((member) => member.slice(idAt - 1))
      const found = caches.at(owner, seen, ids)
      // The texts came with the page when the cache was older; else read only those it lacks.
      const positions = values ? [...ids.keys()] : found.flatMap((movie, at) => (movie ? [] : [at]))
      const read =
        values ??
        (positions.length === 0
          ? []
          : await call((client) => client.mGet(positions.map((at) => keys.movie + ids[at]))))
      for (const [at, text] of read.entries()) {
        if (text !== null) {
          const movie = parse(text)
          found[positions[at] as number] = caches.keep(owner, seen, movie.id, movie)
        }
      }
      for (const [position, movie] of found.entries()) {
        // A movie deleted between the range and the read is skipped.
        const member = members[position] as string
        if (movie && (index === keys.ids ? movie.id : dateMember(movie)) === member)
          movies.push(movie)
      }
      if (members.length < count) break
      start = `(${members.at(-1)}`
    }
    return movies
  }

  // The prefix of every key of the log: the scripts build the terms' keys from it.
  const terms_ = `${keys.tag}:`
  const countIn = redisCountIn(keys, call, run, parse)

  const record = (name: string, value: string, ttlMs: number, onlyIfAbsent: boolean) =>
    run(
      SCRIPTS.RECORD,
      [keys.record + name, keys.records],
      [value, String(Math.ceil(ttlMs)), name, onlyIfAbsent ? '1' : '0'],
    )

  return {
    get: async (id) => {
      const text = await call((client) => client.get(keys.movie + id))
      return text === null ? undefined : parse(text)
    },
    // An owner's first movie is stored only once the owner is in the owners set: while its ids
    // set is not empty (Redis deletes an empty one) the owner is listed, whatever fails between.
    put: async (movie) =>
      woken(await shared.put({ keys, owner, listed: owner === SOLE_OWNER, movie })),
    replace: async (expected, next) => {
      const stored = await current(expected)
      if (stored === undefined) return false
      const args = [stored, JSON.stringify(next), dateMember(expected), dateMember(next)]
      const written = [keys.movie + next.id, keys.dates, keys.changes, keys.history]
      const terms = [terms_, next.id, termsLines(parse(stored)), termsLines(next)]
      return woken((await run(SCRIPTS.REPLACE, written, [...args, ...changed, ...terms])) === 1)
    },
    remove: async (expected) => {
      const stored = await current(expected)
      if (stored === undefined) return false
      const written = [keys.movie + expected.id, keys.ids, keys.dates, keys.changes, keys.history]
      const args = [stored, expected.id, dateMember(expected), ...changed]
      const terms = [terms_, termsLines(parse(stored))]
      return woken((await run(SCRIPTS.REMOVE, written, [...args, ...terms])) === 1)
    },
    listAfter: (after, limit) =>
      page(keys.ids, after === undefined ? '-' : `(${after}`, '+', limit, false),
    listByDate: (query: DateQuery, limit) => {
      const resume =
        query.after && `(${dateMember({ screenedDate: query.after.date, id: query.after.id })}`
      return query.descending
        ? page(keys.dates, resume ?? throughDate(query.to), `[${query.from}`, limit, true)
        : page(keys.dates, resume ?? `[${query.from}`, throughDate(query.to), limit, false)
    },
    create: async (name, value, ttlMs) => (await record(name, value, ttlMs, true)) === 1,
    read: async (name) => (await call((client) => client.get(keys.record + name))) ?? undefined,
    write: async (name, value, ttlMs) => {
      await record(name, value, ttlMs, false)
    },
    // XRANGE from `after` on the history stream, once `after` is found in it (without it,
    // from the stream's first entry).
    changesAfter: async (after, limit): Promise<ChangeRead> => {
      if (after !== undefined && !STREAM_ID.test(after)) return { changes: [], reset: true }
      const count = Number.isFinite(limit) ? String(Math.max(0, limit)) : ''
      const entries = (await run(SCRIPTS.CHANGES_AFTER, [keys.history], [after ?? '', count])) as
        | [string, string[]][]
        | null
      if (entries === null) return { changes: [], reset: true }
      return { changes: entries.map(toChange), reset: false }
    },
    latestChange: async () =>
      ((await run(SCRIPTS.LATEST_CHANGE, [keys.history], [])) as string | null) ?? undefined,
    search: async (words, limit) => {
      const count = String(Number.isFinite(limit) ? limit : Number.MAX_SAFE_INTEGER)
      const args = [terms_, count, words.prefix, afterPrefix(words.prefix), ...words.whole]
      const search = (checked: boolean) =>
        run(SCRIPTS.SEARCH, checked ? [keys.words, keys.ids, keys.counted] : [keys.words], args)
      const texts = (await countIn.whenCounted(search, 'terms')) as (string | null)[]
      return texts.flatMap((text) => (text === null ? [] : [parse(text)]))
    },
    // Along the driving word's ordered set from the resume point: `wi:` members are
    // `id date`, so the movies after an id are those after `id!` ('!' follows ' ').
    searchPage: async (words, query, limit) => {
      const { sort, from, to, after } = query
      const resume =
        after &&
        (sort === 'added'
          ? `(${after.id}!`
          : `(${dateMember({ screenedDate: after.date, id: after.id })}`)
      const bounds =
        sort === 'added'
          ? [resume ?? '-', '+', '0']
          : sort === 'screenedDate'
            ? [resume ?? `[${from}`, throughDate(to), '0']
            : [resume ?? throughDate(to), `[${from}`, '1']
      const count = String(Number.isFinite(limit) ? limit : Number.MAX_SAFE_INTEGER)
      const [start, stop, rev] = bounds as [string, string, string]
      const args = [terms_, count, words.prefix, afterPrefix(words.prefix)]
      args.push(sort === 'added' ? '1' : '0', start, stop, rev, from, to, ...words.whole)
      const read = (checked: boolean) =>
        run(SCRIPTS.SEARCH_PAGE, checked ? [keys.words, keys.ids, keys.paged] : [keys.words], args)
      const texts = (await countIn.whenCounted(read, 'pages')) as (string | null)[] | 0
      // A prefix of many words: the core orders `search`'s answer.
      if (texts === 0) return undefined
      return texts.flatMap((text) => (text === null ? [] : [parse(text)]))
    },
    countTerms: () => countIn.pending(),
    countPending: () => countIn.pendingBatch(),
    tallies: async (from, to) => {
      const checks = [keys.ids, keys.counted]
      const read = (checked: boolean) =>
        run(
          SCRIPTS.TALLIES,
          [keys.tallies, keys.links, ...(checked ? checks : [])],
          [terms_, from, to],
        )
      const [months, kinds, repeats] = (await countIn.whenCounted(read, 'terms')) as [
        string[],
        string[],
        string[],
      ]
      const numbered = (flat: string[]) => pairs(flat).map(([key, n]) => [key, Number(n)] as const)
      const found: Repeat[] = []
      for (let at = 0; at + 2 < repeats.length; at += 3) {
        const [link, title, n] = repeats.slice(at, at + 3) as [string, string, string]
        // Summed over the months asked: counted as of the first.
        found.push({ link, title, month: from, count: Number(n) })
      }
      return {
        counts: [],
        summed: { months: numbered(months), kinds: numbered(kinds) },
        repeats: found,
      }
    },
  }
}
