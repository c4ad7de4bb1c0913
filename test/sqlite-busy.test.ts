// Issue 55, item 1: another process's write lock on a SQLite file never stops this process's
// event loop. An add waits for the lock on a timer (node:sqlite's busy handler slept in the
// only thread), timers and reads go on meanwhile, and the add is stored once the lock is free.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createMovieLog } from 'movie-log'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { type Child, stop, watch } from './_processes'
import { sqliteClients, sqliteUrl } from './_sqlite-clients'
import { tempFolders } from './_temp'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const tempFolder = tempFolders()
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A process holding the file's write lock until `release()`. */
async function holdLock(file: string): Promise<{ release(): Promise<void>; holder: Child }> {
  const holder = watch(
    spawn(process.execPath, ['test/_lock-holder.mjs', file], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  )
  cleanups.push(() => stop(holder))
  await holder.waitForLine(/^locked$/)
  return {
    holder,
    release: async () => {
      holder.process.stdin?.write('release\n')
      await holder.waitForLine(/^released$/)
      expect(await holder.exited).toBe(0)
    },
  }
}

// A hang guard only: opening a new file and creating its tables took over 5 s (the default) on
// a loaded machine. The add that waits for the lock is bounded by the driver's busy timeout.
const options = { storeTimeoutMs: 60_000 }

/** Resolves after the next turn of timers: only an event loop that turns gets there. */
const nextTimer = () => new Promise((done) => setTimeout(done, 1))

describe.each(sqliteClients)('another process holding the write lock, on %s', (client) => {
  it('leaves the event loop turning and reads answered while an add waits, then stores the add', async () => {
    const file = join(tempFolder('movie-log-busy-'), 'movies.sqlite')
    const log = createMovieLog(sqliteUrl(file, client), options)
    cleanups.push(() => log.close())
    const first = await log.addMovie(aMovie({ title: 'Before the lock' }))
    const lock = await holdLock(file)

    let settled = false
    const adding = log.addMovie(aMovie({ title: 'While the lock is held' }))
    void adding.finally(() => {
      settled = true
    })
    // Two turns of timers: the add's commit (at the turn's check phase) was tried between them.
    await nextTimer()
    await nextTimer()
    expect(settled).toBe(false)
    // A read is answered while the lock is held and the add waits, with what is committed.
    const page = await log.listMovies()
    expect(page.movies.map((movie) => movie.id)).toEqual([first.id])
    expect(settled).toBe(false)

    await lock.release()
    const added = await adding
    expect(added.title).toBe('While the lock is held')
    // On disk: another log on the file reads it.
    const again = createMovieLog(sqliteUrl(file, client), options)
    cleanups.push(() => again.close())
    expect(await again.getMovie(added.id)).toEqual(added)
  })
})
