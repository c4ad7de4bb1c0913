import type { ChangeRead, DateQuery, LogDriver, StoreDriver, StoredChange } from '../../core/driver'
import type { StoreFailure } from '../../core/errors'
import type { Movie } from '../../core/movie'
import { afterPrefix } from '../../core/words'
import { latestChanges } from '../shared/latest-changes'
import { createMovieCache } from '../shared/movie-cache'
import { createWatchers, type WakeHub, type WakeSource } from '../shared/watchers'
import { termsCounting, termsText } from './backfill'
import { rarestFirst } from './driving'
import { rollupRanges } from './rollup'
import { type SqlDialect, sqlStatements } from './statements'

/** A database connection (or pool) as the SQL driver uses it: one statement at a time. */
export interface SqlConnection {
  dialect: SqlDialect
  /** Runs one statement with its parameters; resolves with the rows it returned. */
  query(sql: string, parameters: readonly unknown[]): Promise<Record<string, unknown>[]>
  /** `query` with no time bound (PostgreSQL's statement timeout lifted), for a one-time backfill. */
  unbounded?: SqlConnection['query']
  /** Runs statements in order, all or none (SQLite: a savepoint in a group commit's transaction). */
  transaction(steps: readonly (readonly [string, readonly unknown[]])[]): Promise<void>
  /** Opens the store's one wake source: other processes' changes, by owner (see watchers.ts). */
  openWakes(hub: WakeHub, namespace: string): WakeSource
  /**
   * A number that has moved whenever anything may have been committed to the store since it
   * was last read, by any connection of any process, read at once (SQLite on a synchronous
   * library: its own commits and `PRAGMA data_version`). Where there is one, a log's latest
   * change is asked of the store only when it moved.
   */
  changeClock?: () => number
  /** Whether a call can hang (`StoreDriver.remote`); true unless said otherwise. */
  remote?: boolean
  /**
   * Where search and statistics terms are counted (sql/backfill.ts): `adds` leave them to the
   * reads, and `reads` first count in every row without them. SQLite: reads, on every file
   * (other processes may leave them); adds too, on a connection of the driver's own whose
   * history records no change for counting in. Elsewhere: at each write.
   */
  termsOnRead?: { adds: boolean; reads: boolean }
  /**
   * Whether no write is waiting or being committed, nor was a moment ago (SQLite's group
   * commit): where adds leave their terms, a burst of them is counted in while this holds
   * (sql/fold.ts).
   */
  idle?: () => boolean
  close(): Promise<void>
}

// A change id: a log's seq, a positive integer, in decimal (PostgreSQL's bigint at most).
const SEQ = /^[1-9][0-9]{0,17}$/

/** How often a driver deletes a batch of expired records, at most. */
const PURGE_EVERY_MS = 60_000

/**
 * A movie as the SQL drivers store it: its JSON text, fields in one order (no rating or tags key
 * without them: a movie keeps its text). One movie, one text: a compare-and-set compares texts.
 */
export function movieText(movie: Movie): string {
  const { id, title, screenedDate, releaseYear, imdbLink, notes, rating, tags } = movie
  return JSON.stringify({ id, title, screenedDate, releaseYear, imdbLink, notes, rating, tags })
}

/**
 * The store-wide driver over SQLite or PostgreSQL, on a database whose schema its opener has
 * created (`schemaStatements`). Every call is one statement, atomic on its own: create-if-absent an
 * INSERT ... ON CONFLICT DO NOTHING, compare-and-set an UPDATE and compare-and-delete a DELETE
 * conditioned on the stored text; each tells by the row it returns whether it did.
 */
export function createSqlDriver(
  connection: SqlConnection,
  options: {
    kind: string
    namespace: string
    /** The database's own classifier (SQLite's result codes, PostgreSQL's SQLSTATEs). */
    classifyFailure: (error: unknown) => StoreFailure | undefined
  },
): StoreDriver {
  const sql = sqlStatements(connection.dialect)
  const { namespace } = options
  const query = (statement: string, parameters: readonly unknown[]) =>
    connection.query(statement, parameters)
  // Movies read before, by their stored text: a page reuses the frozen movie it parsed then.
  const cache = createMovieCache()
  const toMovies = (rows: Record<string, unknown>[]) =>
    rows.map((row) => {
      const text = row.movie as string
      return cache.get(text) ?? cache.keep(text, JSON.parse(text) as Movie)
    })
  const limitOf = (limit: number) => (Number.isFinite(limit) ? limit : sql.noLimit)
  const toChange = (row: Record<string, unknown>): StoredChange => {
    const id = String(row.seq)
    const text = row.movie as string
    // A deletion keeps the movie as it was; the change names its id only.
    if (row.type === 'deleted') return { id, type: 'deleted', movie: { id: idOf(text) } }
    const [movie] = toMovies([row]) as [Movie]
    return { id, type: row.type as 'added' | 'updated', movie }
  }
  const watchers = createWatchers((hub) => connection.openWakes(hub, namespace))
  let nextPurge = 0
  // NOTIFYs sent after writes, not awaited by them (close() lets them go first), one at a time
  // per owner: a write while one is in flight asks for one more, sent after that write's commit.
  const announcing = new Map<string, { again: boolean; sent: Promise<void> }>()
  const announce = (owner: string) => {
    const inFlight = announcing.get(owner)
    if (inFlight) {
      inFlight.again = true
      return
    }
    const entry = { again: false, sent: Promise.resolve() }
    announcing.set(owner, entry)
    entry.sent = (async () => {
      do {
        entry.again = false
        await query(sql.notify, [namespace, owner]).catch(() => {})
      } while (entry.again)
      announcing.delete(owner)
    })()
  }
  let closing: Promise<void> | undefined
  const latest = latestChanges(connection.changeClock)
  const terms = termsCounting(query, connection.unbounded ?? query, sql.terms, namespace, {
    addsLeave: connection.termsOnRead?.adds === true,
    readsCount: connection.termsOnRead?.reads === true,
    idle: connection.idle,
  })

  const log = (owner: string): LogDriver => {
    const run = (statement: string, ...parameters: unknown[]) =>
      query(statement, [namespace, owner, ...parameters])
    // A write that changed the log wakes this process's watchers at once; others hear it woken.
    const woken = (written: boolean) => {
      if (!written) return written
      watchers.wake(owner)
      // Once committed: the write stands whatever becomes of its announcement (a process that
      // dies here leaves other processes' watchers to find it at the next change or reconnect).
      if (connection.dialect === 'postgres') announce(owner)
      return written
    }
    return {
      put: async (movie) => {
        const movieTerms = terms.of(movie)
        const rows = await run(sql.put, movie.id, movie.screenedDate, movieText(movie), movieTerms)
        if (rows.length === 1 && movieTerms === null) terms.left(owner)
        return woken(rows.length === 1)
      },
      // No stored id holds a NUL (PostgreSQL text cannot): such an id is not found, not an error.
      get: async (id) => (id.includes('\0') ? undefined : toMovies(await run(sql.get, id))[0]),
      listAfter: async (after, limit) =>
        toMovies(await run(sql.listAfter, after ?? '', limitOf(limit))),
      listByDate: async (dates, limit) => {
        const [resuming, far, ...start] = datePage(dates)
        const statement = sql.byDate[dates.descending ? 1 : 0][resuming]
        return toMovies(await run(statement, far, limitOf(limit), ...start))
      },
      replace: async (expected, next) =>
        woken(
          (
            await run(
              sql.replace,
              expected.id,
              movieText(expected),
              next.screenedDate,
              movieText(next),
              termsText(next),
            )
          ).length === 1,
        ),
      remove: async (expected) =>
        woken((await run(sql.remove, expected.id, movieText(expected))).length === 1),
      create: async (key, value, ttlMs) => {
        const now = Date.now()
        if (now >= nextPurge) {
          // Expired records of any owner, a bounded batch, before this claim: nothing runs
          // after the call has answered, and a store failing here fails the claim as it would.
          nextPurge = now + PURGE_EVERY_MS
          await query(sql.purge, [now])
        }
        return (await run(sql.create, key, value, now + ttlMs, now)).length === 1
      },
      read: async (key) => (await run(sql.read, key, Date.now()))[0]?.value as string | undefined,
      write: async (key, value, ttlMs) => {
        await run(sql.write, key, value, Date.now() + ttlMs)
      },
      // From `after` itself, along the primary key: the first row must be `after`, or the
      // history no longer reaches it (trimmed, dropped, or never this log's). Without it, the
      // same range from the start of the log's (seqs are positive).
      changesAfter: async (after, limit): Promise<ChangeRead> => {
        if (after === undefined) {
          const rows = await run(sql.changesFrom, 0, limitOf(limit))
          return { changes: rows.map(toChange), reset: false }
        }
        if (!SEQ.test(after)) return { changes: [], reset: true }
        const rows = await run(sql.changesFrom, after, limitOf(limit + 1))
        if (rows[0] === undefined || String(rows[0].seq) !== after)
          return { changes: [], reset: true }
        return { changes: rows.slice(1).map(toChange), reset: false }
      },
      search: async (words, limit) => {
        await terms.beforeRead(owner)
        // The first word drives the query: the rarest.
        const whole = await rarestFirst(run, sql.terms, words)
        if (!whole) return []
        const statement = sql.terms.search(whole.length)
        const bounds = [words.prefix, afterPrefix(words.prefix)]
        // A prefix's rows may repeat a movie: asked again for more while the limit was reached.
        for (let asked = limit; ; asked *= 2) {
          const rows = await run(statement, ...whole, ...bounds, limitOf(asked))
          const found = new Map(toMovies(rows).map((movie) => [movie.id, movie]))
          if (found.size >= limit || rows.length < asked || !Number.isFinite(asked)) {
            return [...found.values()].slice(0, limit)
          }
        }
      },
      searchPage: async (words, page, limit) => {
        await terms.beforeRead(owner)
        const whole = await rarestFirst(run, sql.terms, words)
        if (!whole) return []
        const bounds = [words.prefix, afterPrefix(words.prefix)]
        // A prefix alone: its words (a few seeks), each read in order and merged, when few.
        let prefixed: unknown[] = []
        if (whole.length === 0) {
          const rows = await run(sql.terms.prefixWords, ...bounds, PREFIX_WORDS + 1)
          if (rows.length === 0) return []
          if (rows.length <= PREFIX_WORDS) prefixed = rows.map((row) => row.word)
        }
        const { sort, from, to, after } = page
        const statement = sql.terms.searchPage(
          whole.length,
          sort,
          after !== undefined,
          prefixed.length,
        )
        const driving = prefixed.length > 0 ? prefixed : [...whole, ...bounds]
        const resume = !after ? [] : sort === 'added' ? [after.id] : [after.date, after.id]
        return toMovies(await run(statement, ...driving, from, to, limitOf(limit), ...resume))
      },
      tallies: async (from, to) => {
        await terms.beforeRead(owner)
        // Whole years from the rollup, the months either side from the month counters.
        const ranges = rollupRanges(from, to)
        const months = await run(sql.terms.months, from, to)
        const kinds = ranges.years ? await run(sql.terms.years, ...ranges.years) : []
        for (const bounds of ranges.months) kinds.push(...(await run(sql.terms.kinds, ...bounds)))
        const repeats = await run(sql.terms.repeats, from, to)
        return {
          counts: [],
          summed: {
            months: months.map((row) => [row.month as string, Number(row.n)] as const),
            kinds: kinds.map((row) => [row.kind as string, Number(row.n)] as const),
          },
          repeats: repeats.map((row) => ({
            link: row.link as string,
            title: row.title as string,
            // Summed over the months asked: counted as of the first.
            month: from,
            count: Number(row.n),
          })),
        }
      },
      countTerms: terms.added,
      countPending: terms.pendingOf(owner),
      latestChange: () =>
        latest(owner, async () => {
          const [row] = await run(sql.latestChange)
          return row?.seq === null || row?.seq === undefined ? undefined : String(row.seq)
        }),
    }
  }

  return {
    kind: options.kind,
    remote: connection.remote ?? true,
    atomic: true,
    log,
    drop: async (owner) => {
      await connection.transaction(sql.drop.map((statement) => [statement, [namespace, owner]]))
      watchers.wake(owner)
    },
    owners: async (after, limit = Number.POSITIVE_INFINITY) =>
      (await query(sql.owners, [namespace, after ?? '', limitOf(limit)])).map(
        (row) => row.owner as string,
      ),
    classifyFailure: options.classifyFailure,
    onChange: watchers.onChange,
    close: () => {
      const sending = [...announcing.values()].map((entry) => entry.sent)
      closing ??= Promise.allSettled([watchers.close(), terms.close(), ...sending]).then(() =>
        connection.close(),
      )
      return closing
    },
  }
}

/** Most words of a prefix read one by one and merged; past it, its range is read and sorted. */
const PREFIX_WORDS = 32

/** The id in a movie's stored text. */
function idOf(text: string): string {
  return (JSON.parse(text) as { id: string }).id
}

/**
 * Which date statement (0: from the near bound, 1: resuming) and its bounds: the far one, then
 * the near one or the resume point, whichever is further in (a cursor's movie is in its range).
 */
function datePage(dates: DateQuery): [0 | 1, string, ...string[]] {
  const { descending, from, to, after } = dates
  const [near, far] = descending ? [to, from] : [from, to]
  const inside = after && (descending ? after.date <= to : after.date >= from)
  return inside ? [1, far, after.date, after.id] : [0, far, near]
}
