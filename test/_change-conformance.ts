// Issue 29: a log's change history, on every driver that keeps one. A function of a driver
// factory, each test on a namespace of its own (see test/README.md).
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import type { LogDriver, StoreDriver } from '../src/core/driver'
import type { Movie } from '../src/core/movie'
import { aMovie } from './_movies'
import { stop, watch } from './_processes'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

export interface ChangeSuiteOptions {
  /** The changes a log keeps at least. */
  bound: number
  /** The changes a log keeps at most (the bound, or more where trimming is approximate). */
  keptAtMost: number
  /**
   * How long a watcher may take to see another connection's write: 1 s, or one poll and its read
   * where the driver polls (D1 asks once a second, so a put just after a poll is seen at the next).
   */
  wakesWithinMs?: number
  /**
   * Whether writes made at once share a commit (SQLite's group commit): the bound's 1,050 puts
   * are then made 50 at a time, a few commits and syncs where one at a time made 1,050. Not on
   * PostgreSQL, whose trim under concurrent writers keeps more than the bound for a while.
   */
  commitsTogether?: boolean
  /** The store URL a second process opens, when the store is shared across processes (read when the test runs). */
  url?: string | (() => string)
}

/** Resolves at the next call of the `wake` it gives, or fails after `ms` (a hang guard). */
export function wakes(): { wake: () => void; next(ms: number, what: string): Promise<void> } {
  let waiting: (() => void) | undefined
  let pending = 0
  return {
    wake: () => {
      pending++
      waiting?.()
    },
    next: (ms, what) => {
      if (pending > 0) {
        pending = 0
        return Promise.resolve()
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined
          reject(new Error(`not woken within ${ms} ms: ${what}`))
        }, ms)
        waiting = () => {
          clearTimeout(timer)
          waiting = undefined
          pending = 0
          resolve()
        }
      })
    },
  }
}

/** Runs `test/_change-writer.mjs` in a process of its own: one movie added to the owner's log. */
export async function writeFromAnotherProcess(url: string, namespace: string, owner: string) {
  const child = watch(
    spawn(process.execPath, ['test/_change-writer.mjs', url, namespace, owner], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
  try {
    const line = await child.waitForLine(/^written /)
    expect(await child.exited).toBe(0)
    return line.slice('written '.length)
  } finally {
    await stop(child)
  }
}

export function describeChangeSuite(
  name: string,
  openDriver: (namespace: string) => Promise<StoreDriver>,
  options: ChangeSuiteOptions,
): void {
  describe(`change history: ${name}`, () => {
    const opened: { driver: StoreDriver; owners: string[] }[] = []
    afterAll(async () => {
      const closing = opened.splice(0)
      // One at a time: drops from many connections to one SQLite file at once wait on each
      // other's locks, and sqlite3 waits inside Node's four-thread pool, where the holder's
      // COMMIT then queues behind the waiters until their busy timeouts end.
      for (const { driver, owners } of closing) {
        for (const owner of owners) await driver.drop(owner).catch(() => {})
      }
      await Promise.allSettled(closing.map(({ driver }) => driver.close()))
    })
    const open = async (namespace = `test-${randomUUID()}`, owners = ['alice', 'bob']) => {
      const driver = await openDriver(namespace)
      opened.push({ driver, owners })
      return { driver, namespace }
    }
    // Two drivers on one namespace, each on a connection of its own, as two processes would be.
    const openPair = async () => {
      const { driver, namespace } = await open()
      const { driver: other } = await open(namespace)
      return { driver, other, namespace }
    }
    const movie = (title: string, id: string = randomUUID()): Movie =>
      Object.freeze({ ...aMovie({ title }), notes: '', id }) as Movie
    /** Starts a log with one movie; resolves with the log and the id of that first change. */
    const started = async (log: LogDriver) => {
      expect(await log.latestChange()).toBeUndefined()
      expect(await log.put(movie('First'))).toBe(true)
      const start = await log.latestChange()
      expect(start).toEqual(expect.any(String))
      return start as string
    }

    it('keeps one change per acknowledged write, none for a refused one, in order', async () => {
      const { driver, other } = await openPair()
      const [log, seen] = [driver.log('alice'), other.log('alice')]
      const start = await started(log)
      const [kept, gone] = [movie('Kept'), movie('Gone')]
      expect(await log.put(kept)).toBe(true)
      expect(await seen.put(gone)).toBe(true)
      expect(await log.put({ ...kept, title: 'Duplicate' })).toBe(false)
      const edited = { ...kept, title: 'Kept, edited' }
      expect(await seen.replace(kept, edited)).toBe(true)
      expect(await log.replace(kept, { ...kept, title: 'Stale' })).toBe(false)
      const absent = movie('Absent')
      expect(await log.replace(absent, { ...absent, title: 'Created?' })).toBe(false)
      expect(await log.remove(gone)).toBe(true)
      expect(await seen.remove(gone)).toBe(false)
      expect(await log.remove(kept)).toBe(false)
      // Records are not changes of the log.
      await log.create('claim', 'x', 60_000)

      for (const reader of [log, seen]) {
        const read = await reader.changesAfter(start, 100)
        expect(read.reset).toBe(false)
        expect(read.changes.map(({ type, movie }) => [type, movie])).toEqual([
          ['added', kept],
          ['added', gone],
          ['updated', edited],
          ['deleted', { id: gone.id }],
        ])
        expect(await reader.latestChange()).toBe(read.changes.at(-1)?.id)
        const ids = read.changes.map((change) => change.id)
        expect(new Set([start, ...ids]).size).toBe(5)
      }
      // Without a point to start from, from the oldest change kept: the log's first included.
      const all = await seen.changesAfter(start, 100)
      const first = (await log.changesAfter(undefined, 100)).changes[0]
      expect(first).toMatchObject({ id: start, type: 'added', movie: { title: 'First' } })
      expect(await seen.changesAfter(undefined, 100)).toEqual({
        changes: [first, ...all.changes],
        reset: false,
      })
      expect(await seen.changesAfter(undefined, 2)).toEqual({
        changes: [first, all.changes[0]],
        reset: false,
      })
      expect(await seen.changesAfter(undefined, 0)).toEqual({ changes: [], reset: false })
    })

    it('reads none from the start of a log with no change, and every change once it has some', async () => {
      const { driver, other } = await openPair()
      const [log, seen] = [driver.log('alice'), other.log('alice')]
      expect(await log.changesAfter(undefined, 10)).toEqual({ changes: [], reset: false })
      const added = movie('Added')
      expect(await seen.put(added)).toBe(true)
      const read = await log.changesAfter(undefined, Number.POSITIVE_INFINITY)
      expect(read).toEqual({
        changes: [{ id: await log.latestChange(), type: 'added', movie: added }],
        reset: false,
      })
      expect(await other.log('bob').changesAfter(undefined, 10)).toEqual({
        changes: [],
        reset: false,
      })
    })

    it('keeps every one of concurrent writes from two connections, each once, in the order read', async () => {
      const { driver, other } = await openPair()
      const [log, seen] = [driver.log('alice'), other.log('alice')]
      const start = await started(log)
      const movies = Array.from({ length: 20 }, (_, n) => movie(`Concurrent ${n}`))
      const written = await Promise.all(movies.map((each, n) => (n % 2 ? log : seen).put(each)))
      expect(written.every(Boolean)).toBe(true)
      const target = movies[0] as Movie
      const edits = Array.from({ length: 10 }, (_, n) => ({ ...target, title: `Edit ${n}` }))
      const won = await Promise.all(
        edits.map((next, n) => (n % 2 ? log : seen).replace(target, next)),
      )
      expect(won.filter(Boolean)).toHaveLength(1)
      const { changes, reset } = await seen.changesAfter(start, 100)
      expect(reset).toBe(false)
      expect(
        changes
          .filter((change) => change.type === 'added')
          .map((c) => c.movie.id)
          .sort(),
      ).toEqual(movies.map((each) => each.id).sort())
      expect(changes.filter((change) => change.type === 'updated').map((c) => c.movie)).toEqual([
        edits[won.indexOf(true)],
      ])
      // The edit came after its movie was added.
      const at = (type: string) =>
        changes.findIndex((c) => c.type === type && c.movie.id === target.id)
      expect(at('updated')).toBeGreaterThan(at('added'))
      // Read from any change, the rest in the same order.
      const middle = changes[9] as { id: string }
      expect((await log.changesAfter(middle.id, 100)).changes).toEqual(changes.slice(10))
    })

    it('resumes exactly after any change, a page at a time, and resets on an id it does not know', async () => {
      const { driver } = await open()
      const log = driver.log('alice')
      const start = await started(log)
      const movies = ['A', 'B', 'C', 'D', 'E'].map((title) => movie(title))
      for (const each of movies) expect(await log.put(each)).toBe(true)
      const all = await log.changesAfter(start, Number.POSITIVE_INFINITY)
      expect(all.changes.map((change) => change.movie)).toEqual(movies)
      let after = start
      const paged: Movie[] = []
      for (;;) {
        const page = await log.changesAfter(after, 2)
        expect(page.reset).toBe(false)
        expect(page.changes.length).toBeLessThanOrEqual(2)
        if (page.changes.length === 0) break
        paged.push(...page.changes.map((change) => change.movie as Movie))
        after = page.changes.at(-1)?.id as string
      }
      expect(paged).toEqual(movies)
      expect(after).toBe(await log.latestChange())
      for (const [at, change] of all.changes.entries()) {
        const rest = await log.changesAfter(change.id, 100)
        expect(rest).toEqual({ changes: all.changes.slice(at + 1), reset: false })
      }
      expect(await log.changesAfter(start, 0)).toEqual({ changes: [], reset: false })
      for (const unknown of ['', 'nope', '1-x', '-1', '0', '99999999999999999999999', `${start}0`])
        expect(await log.changesAfter(unknown, 10), unknown).toEqual({ changes: [], reset: true })
    })

    it(`keeps at least the latest ${options.bound} changes, and resets a reader left behind`, async () => {
      const { driver } = await open()
      const log = driver.log('alice')
      const start = await started(log)
      const ids = [start]
      const total = options.keptAtMost + 50
      let added: Movie | undefined
      for (let written = 0; written < total; written += 50) {
        const batch = Array.from({ length: 50 }, (_, n) => movie(`M${written + n}`))
        if (options.commitsTogether) await Promise.all(batch.map((each) => log.put(each)))
        else for (const each of batch) await log.put(each)
        // Read as a watcher would, before the batch after it can trim these.
        const read = await log.changesAfter(ids.at(-1), 100)
        expect(read.reset).toBe(false)
        // Made at once, they are in the order of their commit: the other tests check orders.
        const movies = read.changes.map((change) => change.movie as Movie)
        const byNumber = (a: Movie, b: Movie) =>
          a.title.localeCompare(b.title, 'en', { numeric: true })
        expect(movies.sort(byNumber)).toEqual(batch)
        ids.push(...read.changes.map((change) => change.id))
        added = read.changes.at(-1)?.movie as Movie
      }
      expect(await log.changesAfter(start, 10)).toEqual({ changes: [], reset: true })
      const behind = ids[ids.length - 1 - options.keptAtMost] as string
      expect(await log.changesAfter(behind, 10)).toEqual({ changes: [], reset: true })
      const oldestKept = ids[ids.length - options.bound] as string
      const kept = await log.changesAfter(oldestKept, Number.POSITIVE_INFINITY)
      expect(kept.reset).toBe(false)
      expect(kept.changes).toHaveLength(options.bound - 1)
      expect(kept.changes.at(-1)?.movie).toEqual(added)
      // From the start: the oldest change kept, never a reset (a watch begun on an empty log).
      const fromStart = await log.changesAfter(undefined, Number.POSITIVE_INFINITY)
      expect(fromStart.reset).toBe(false)
      expect(fromStart.changes.length).toBeGreaterThanOrEqual(options.bound)
      expect(fromStart.changes.length).toBeLessThanOrEqual(options.keptAtMost)
      expect(fromStart.changes.slice(-kept.changes.length)).toEqual(kept.changes)
      expect(fromStart.changes[0]?.id).toBe(ids[ids.length - fromStart.changes.length])
    })

    it("keeps each owner's history apart, and drop deletes an owner's", async () => {
      const { driver, other } = await openPair()
      const [alice, bob] = [driver.log('alice'), other.log('bob')]
      const aliceStart = await started(alice)
      expect(await bob.latestChange()).toBeUndefined()
      expect(await bob.changesAfter(aliceStart, 10)).toEqual({ changes: [], reset: true })
      const bobStart = await started(bob)
      const [forAlice, forBob] = [movie('For Alice', 'same-id'), movie('For Bob', 'same-id')]
      await alice.put(forAlice)
      await bob.put(forBob)
      expect((await alice.changesAfter(aliceStart, 10)).changes.map((c) => c.movie)).toEqual([
        forAlice,
      ])
      expect((await bob.changesAfter(bobStart, 10)).changes.map((c) => c.movie)).toEqual([forBob])

      const { wake, next } = wakes()
      const stopWatching = other.onChange('alice', wake)
      await other.drop('alice')
      await next(1000, 'a drop of the watched log')
      stopWatching()
      for (const reader of [alice, other.log('alice')]) {
        expect(await reader.latestChange()).toBeUndefined()
        expect(await reader.changesAfter(aliceStart, 10)).toEqual({ changes: [], reset: true })
        expect(await reader.changesAfter(undefined, 10)).toEqual({ changes: [], reset: false })
      }
      expect((await bob.changesAfter(bobStart, 10)).changes.map((c) => c.movie)).toEqual([forBob])
      // A log started again after its drop gives no id the old one gave.
      const restarted = await started(alice)
      expect(restarted).not.toBe(aliceStart)
      // Read from the start, only the changes since the drop.
      const since = await other.log('alice').changesAfter(undefined, 10)
      expect(since.changes.map((change) => change.id)).toEqual([restarted])
      expect(await alice.changesAfter(aliceStart, 10)).toEqual({ changes: [], reset: true })
    })

    it('wakes a watcher of the owner when another connection writes, and closes while watched', async () => {
      const { driver, other, namespace } = await openPair()
      const { wake, next } = wakes()
      const stopWatching = driver.onChange('alice', wake)
      // Woken once its wake connection is ready: what came before is read then.
      await next(5000, 'the wake connection ready')
      const start = await started(other.log('alice'))
      await next(options.wakesWithinMs ?? 1000, 'a put by another connection')
      expect(await driver.log('alice').latestChange()).toBe(start)
      stopWatching()
      // A watcher left open does not hold close() up.
      const watched = await openDriver(namespace)
      watched.onChange('alice', () => {})
      watched.onChange('bob', () => {})
      await watched.close()
    })

    if (options.url) {
      const given = options.url
      const url = () => (typeof given === 'string' ? given : given())
      it('wakes a watcher within a second of another process writing the log', async () => {
        const { driver, namespace } = await open()
        const { wake, next } = wakes()
        const stopWatching = driver.onChange('alice', wake)
        await next(5000, 'the wake connection ready')
        const first = await writeFromAnotherProcess(url(), namespace, 'alice')
        await next(1000, 'a put in another process')
        const log = driver.log('alice')
        const start = (await log.latestChange()) as string
        expect(start).toEqual(expect.any(String))
        const id = await writeFromAnotherProcess(url(), namespace, 'alice')
        await next(1000, 'a second put in another process')
        const read = await log.changesAfter(start, 10)
        expect(read.changes.map((change) => change.movie.id)).toEqual([id])
        expect(id).not.toBe(first)
        stopWatching()
      })
    }
  })
}
