// Issue 55 item 1: a bulk writer's commits on SQLite without a sync each (`?synchronous=normal`),
// its files synced once when it closes; `movie-log import` opens its SQLite store that way.
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { bulkStoreUrl } from '../src/cli/log-store'
import { UnsupportedStoreError } from '../src/core/errors'
import type { Movie } from '../src/core/movie'
import { createMovieLog } from '../src/create'
import { sqliteOpener } from '../src/drivers/sqlite/driver'
import { aMovie } from './_movies'
import { sqliteClients, sqliteUrl } from './_sqlite-clients'
import { tempFolders } from './_temp'

// Every sync of a file through node:fs/promises, by path: what `syncFiles` makes at close.
const synced = vi.hoisted(() => [] as string[])
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>()
  const open: typeof fs.open = async (path, ...rest) => {
    const handle = await fs.open(path, ...rest)
    const sync = handle.sync.bind(handle)
    handle.sync = async () => {
      synced.push(String(path))
      return sync()
    }
    return handle
  }
  return { ...fs, open, default: { ...fs, open } }
})

const tempFolder = tempFolders()
const OPTIONS = { namespace: 'movie-log', connectTimeoutMs: 1000 }
const movie = (): Movie => ({ ...aMovie(), notes: '', id: randomUUID() }) as Movie

/**
 * The driver evaluated anew, on the mocked node:fs: the unit project's files share a worker's
 * loaded modules (isolate: false), and one loaded before this file holds the real one.
 */
async function freshDriver() {
  vi.resetModules()
  return import('../src/drivers/sqlite/driver')
}
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  synced.length = 0
})

describe.each(sqliteClients)('synchronous=normal on %s', (client) => {
  it('sets NORMAL on the connections it opens, FULL by default', async () => {
    const folder = tempFolder('movie-log-sync-setup-')
    const setting = async (synchronous?: 'normal') => {
      const connect = await sqliteOpener(client, synchronous)
      const connection = await connect(join(folder, 'movies.sqlite'))
      try {
        const [row] = await connection.query('PRAGMA synchronous', [])
        return Object.values(row ?? {})[0]
      } finally {
        await connection.close()
      }
    }
    // 1 is NORMAL, 2 FULL.
    expect(await setting('normal')).toBe(1)
    expect(await setting()).toBe(2)
  })

  it('syncs the file, its log and its folder once it is closed, and keeps what it wrote', async () => {
    const { openSqliteDriver } = await freshDriver()
    const folder = tempFolder('movie-log-sync-close-')
    const file = join(folder, 'movies.sqlite')
    const driver = await openSqliteDriver(`${sqliteUrl(file, client)}&synchronous=normal`, OPTIONS)
    const movies = [movie(), movie()]
    for (const each of movies) expect(await driver.log('').put(each)).toBe(true)
    expect(synced).toEqual([])
    await driver.close()
    // The log is checkpointed and removed by the last connection's close: then the file alone.
    expect(synced.filter((path) => path !== `${file}-wal`)).toEqual([file, folder])

    const again = await openSqliteDriver(sqliteUrl(file, client), OPTIONS)
    cleanups.push(() => again.close())
    for (const each of movies) expect(await again.log('').get(each.id)).toEqual(each)
  })

  it('syncs nothing more at close where every commit was synced (the default)', async () => {
    const { openSqliteDriver } = await freshDriver()
    const file = join(tempFolder('movie-log-sync-full-'), 'movies.sqlite')
    const driver = await openSqliteDriver(sqliteUrl(file, client), OPTIONS)
    await driver.log('').put(movie())
    await driver.close()
    expect(synced).toEqual([])
  })
})

describe('the synchronous parameter', () => {
  it.each([
    ['?synchronous=off', "asks for synchronous 'off': synchronous is full or normal"],
    ['?synchronous=normal&synchronous=full', 'names synchronous more than once'],
    ['?sync=normal', "unknown parameter 'sync'"],
    ['?constructor=1', "unknown parameter 'constructor'"],
  ])('refuses %s, naming it', async (query, message) => {
    const file = join(tempFolder('movie-log-sync-url-'), 'movies.sqlite')
    const log = createMovieLog(`sqlite://${file}${query}`)
    const error = await log.listMovies().catch((caught: unknown) => caught)
    expect(UnsupportedStoreError.is(error)).toBe(true)
    expect((error as Error).message).toContain(message)
  })
})

describe('the store an import opens', () => {
  it('is a SQLite URL with synchronous=normal, unless the URL says; any other as it is', () => {
    expect(bulkStoreUrl('sqlite://./data/movies.sqlite')).toBe(
      'sqlite://./data/movies.sqlite?synchronous=normal',
    )
    expect(bulkStoreUrl('sqlite://m.sqlite?client=sqlite3')).toBe(
      'sqlite://m.sqlite?client=sqlite3&synchronous=normal',
    )
    expect(bulkStoreUrl('sqlite://m.sqlite?synchronous=full')).toBe(
      'sqlite://m.sqlite?synchronous=full',
    )
    expect(bulkStoreUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379')
  })
})
