import { randomUUID } from 'node:crypto'
import {
  type ClosableMovieLog,
  createMovieLog,
  createMovieLogs,
  type LogChange,
  type Movie,
  type MovieLog,
  type MovieLogs,
  PreconditionFailedError,
} from 'movie-log'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import type { StoreBackend, StoreSuiteOptions } from './_store-suite'
import { latestChangeOf, type OpenWatch, openWatch } from './_watch-helpers'

// What a history keeps, at least (Redis trims with MAXLEN ~: a little more).
const KEPT = 1000
// Past what any history keeps: Redis keeps at most one stream node (100 entries) more.
const PAST_KEPT = 1200

const summary = (changes: LogChange[]) =>
  changes.map((change) =>
    change.type === 'reset'
      ? 'reset'
      : `${change.type} ${(change.movie as Movie).title ?? change.movie.id}`,
  )

/**
 * The watch conformance suite: `log.watch` on a backend, straight or through the client (its
 * `connect`). Each test on a fresh namespace. Register it per backend once its driver keeps a
 * change history. `bound: false` leaves out the 2,200 adds that go past the history's bound,
 * for a store too slow to make them (the scan keeps memory's history, tested there).
 */
export function describeWatchSuite(
  backend: StoreBackend,
  suite: StoreSuiteOptions = {},
  { bound = true }: { bound?: boolean } = {},
): void {
  const made: (ClosableMovieLog | MovieLogs)[] = []
  const watches: OpenWatch[] = []
  const connect =
    suite.connect ??
    (async (store, options) => {
      const log = createMovieLog(store, options)
      made.push(log)
      return log
    })
  const openLog = async (namespace = `test-${randomUUID()}`): Promise<MovieLog> =>
    connect(await backend.open(namespace), { namespace })
  const watch = (log: MovieLog, after?: string) => {
    const opened = openWatch(log, { after })
    watches.push(opened)
    return opened
  }
  const title = ['watch conformance', backend.name, suite.name].filter(Boolean).join(': ')

  describe(title, () => {
    afterEach(async () => {
      await Promise.allSettled(watches.splice(0).map((each) => each.close()))
      await Promise.allSettled(made.splice(0).map((log) => log.close()))
      await backend.closeAll()
    })

    it('reports adds, edits and deletes in order, each movie as stored, with distinct ids', async () => {
      const log = await openLog()
      const changes = watch(log, await latestChangeOf(log))
      const added = await log.addMovie(aMovie({ title: 'Added' }))
      const updated = await log.updateMovie(added.id, { title: 'Updated' })
      await log.deleteMovie(added.id)
      const seen = await changes.take(3)
      expect(
        seen.map((change) => ({ type: change.type, movie: 'movie' in change && change.movie })),
      ).toEqual([
        { type: 'added', movie: added },
        { type: 'updated', movie: updated },
        { type: 'deleted', movie: { id: added.id } },
      ])
      expect(new Set(seen.map((change) => change.id)).size).toBe(3)
    })

    it('resumes after any change: exactly the later ones, in order, then the new ones', async () => {
      const log = await openLog()
      const start = await latestChangeOf(log)
      for (const n of [1, 2, 3, 4, 5]) await log.addMovie(aMovie({ title: `Movie ${n}` }))
      const all = await watch(log, start).take(5)
      expect(summary(all)).toEqual([1, 2, 3, 4, 5].map((n) => `added Movie ${n}`))
      const resumed = watch(log, all[1]?.id)
      expect(await resumed.take(3)).toEqual(all.slice(2))
      const later = await log.addMovie(aMovie({ title: 'Later' }))
      expect(await resumed.next()).toMatchObject({ type: 'added', movie: later })
    })

    it.runIf(bound)(
      'replays what it keeps and resets past it: the latest 1,000 changes at least',
      {
        timeout: 120_000,
      },
      async () => {
        const log = await openLog()
        const start = await latestChangeOf(log)
        const batch = async (count: number, from: number) => {
          for (let n = 0; n < count; n += 100) {
            const size = Math.min(100, count - n)
            await Promise.all(
              Array.from({ length: size }, (_, k) =>
                log.addMovie(aMovie({ title: `${from + n + k}` })),
              ),
            )
          }
        }
        await batch(KEPT - 1, 0)
        const kept = await watch(log, start).take(KEPT - 1)
        expect(kept.every((change) => change.type === 'added')).toBe(true)

        await batch(PAST_KEPT, KEPT)
        const reset = watch(log, start)
        const first = await reset.next()
        expect(first.type).toBe('reset')
        // The reset names the latest change: the watch goes on from there.
        const next = await log.addMovie(aMovie({ title: 'After the reset' }))
        expect(await reset.next()).toMatchObject({ type: 'added', movie: next })
        // Resuming from the reset's id is resuming from that point, with nothing replayed.
        expect(await watch(log, first.id).next()).toMatchObject({ type: 'added', movie: next })
      },
    )

    it('reports nothing for a write that was refused', async () => {
      const log = await openLog()
      const movie = await log.addMovie(aMovie({ title: 'Kept' }))
      const changes = watch(log, await latestChangeOf(log))
      await expect(
        log.updateMovie(movie.id, { title: 'Stale' }, { ifMatch: '"stale"' }),
      ).rejects.toThrow(PreconditionFailedError)
      await expect(log.deleteMovie(movie.id, { ifMatch: '"stale"' })).rejects.toThrow(
        PreconditionFailedError,
      )
      expect(await log.deleteMovie(randomUUID())).toBe(false)
      await expect(log.updateMovie(randomUUID(), { title: 'Nobody' })).rejects.toThrow()
      await expect(log.addMovie(aMovie({ title: '' }))).rejects.toThrow()
      const last = await log.addMovie(aMovie({ title: 'The only change' }))
      expect(await changes.next()).toMatchObject({ type: 'added', movie: last })
    })

    it('sees the changes of another log on the same store', async () => {
      const namespace = `test-${randomUUID()}`
      const [first, second] = [await openLog(namespace), await openLog(namespace)]
      const changes = watch(second, await latestChangeOf(second))
      const movie = await first.addMovie(aMovie({ title: 'From the first' }))
      await first.deleteMovie(movie.id)
      expect(summary(await changes.take(2))).toEqual([
        'added From the first',
        `deleted ${movie.id}`,
      ])
    })

    it('refuses an after later than any change the log made, naming it (issue 61)', async () => {
      const log = await openLog()
      const latest = await latestChangeOf(log)
      // 20 digits: the form of a change id, past any a store made (a Redis id's ms too).
      const forged = watch(log, '99999999999999999999')
      await expect(forged.next()).rejects.toMatchObject({
        name: 'InvalidPageRequestError',
        issues: [{ path: expect.stringMatching(/^(after|lastEventId|Last-Event-ID)$/) }],
      })
      // The latest itself resumes, with nothing replayed.
      const resumed = watch(log, latest)
      const added = await log.addMovie(aMovie({ title: 'After the latest' }))
      expect(await resumed.next()).toMatchObject({ type: 'added', movie: added })
    })

    it('reports a new log’s changes from its first, as they are, never a reset', async () => {
      // Begun (its start read) before the first add: a new log has kept no change to start at.
      const log = await openLog()
      const changes = watch(log)
      expect(await changes.started()).toBeUndefined()
      const adds: Movie[] = []
      for (const n of [1, 2, 3]) adds.push(await log.addMovie(aMovie({ title: `Movie ${n}` })))
      expect(summary(await changes.take(3))).toEqual(adds.map((movie) => `added ${movie.title}`))
    })

    it('ends when its signal aborts, a pending read included', async () => {
      const log = await openLog()
      const stop = new AbortController()
      const iterator = log.watch({ signal: stop.signal })[Symbol.asyncIterator]()
      const pending = iterator.next()
      stop.abort()
      expect(await pending).toEqual({ done: true, value: undefined })
      const ended = log.watch({ signal: stop.signal })
      for await (const change of ended) throw new Error(`read ${change.type} after the abort`)
    })

    // Owners are the core's (createMovieLogs); over HTTP, test/http-events.test.ts.
    if (!suite.connect) {
      it('never reports one owner’s change to another’s watch', async () => {
        const namespace = `test-${randomUUID()}`
        const logs = createMovieLogs(await backend.open(namespace), { namespace })
        made.push(logs)
        const [aliceLog, bobLog, otherLog] = [logs.of('alice'), logs.of('bob'), logs.of('alice:2')]
        const changes = watch(aliceLog, await latestChangeOf(aliceLog))
        const bobs = await bobLog.addMovie(aMovie({ title: 'Bob’s' }))
        await bobLog.updateMovie(bobs.id, { title: 'Bob’s, edited' })
        await otherLog.addMovie(aMovie({ title: 'alice:2’s' }))
        await logs.drop('bob')
        const own = await aliceLog.addMovie(aMovie({ title: 'Alice’s' }))
        expect(await changes.next()).toMatchObject({ type: 'added', movie: own })
        // Her own drop is a change of hers: the watch resets, then reads her new diary from
        // its first change.
        await logs.drop('alice')
        expect((await changes.next()).type).toBe('reset')
        const again = await aliceLog.addMovie(aMovie({ title: 'Alice’s, after the drop' }))
        expect(await changes.next()).toMatchObject({ type: 'added', movie: again })
        await logs.drop('alice:2')
      })
    }
  })
}
