// Issue 55 item 1: a bulk writer's commits on SQLite without a sync each (`?synchronous=normal`),
// its files synced once when it closes; `movie-log import` opens its SQLite store that way.
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { bulkStoreUrl } from '../src/cli/log-store'
import { UnsupportedStoreError } from '../src/core/errors'
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
    const folder = tempFolder('movie-log-sync-close-')
    const file = join(folder, 'movies.sqlite')
    const log = createMovieLog(`${sqliteUrl(file, client)}&synchronous=normal`)
    const added = await Promise.all([log.addMovie(aMovie()), log.addMovie(aMovie())])
    expect(synced).toEqual([])
    await log.close()
    // The log is checkpointed and removed by the last connection's close: then the file alone.
    expect(synced.filter((path) => path !== `${file}-wal`)).toEqual([file, folder])

    const again = createMovieLog(sqliteUrl(file, client))
    cleanups.push(() => again.close())
    const ids = (await again.listMovies({ limit: 10 })).movies.map((movie) => movie.id)
    expect(ids.sort()).toEqual(added.map((movie) => movie.id).sort())
  })

  it('syncs nothing more at close where every commit was synced (the default)', async () => {
    const file = join(tempFolder('movie-log-sync-full-'), 'movies.sqlite')
    const log = createMovieLog(sqliteUrl(file, client))
    await log.addMovie(aMovie())
    await log.close()
    expect(synced).toEqual([])
  })
})

describe('the synchronous parameter', () => {
  it.each([
    ['?synchronous=off', "asks for synchronous 'off': synchronous is full or normal"],
    ['?synchronous=normal&synchronous=full', 'names synchronous more than once'],
    ['?sync=normal', "unknown parameter 'sync'"],
  ])('refuses %s, naming it', async (query, message) => {
    const file = join(tempFolder('movie-log-sync-url-'), 'movies.sqlite')
    const log = createMovieLog(`sqlite://${file}${query}`)
    const error = await log.listMovies().catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(UnsupportedStoreError)
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
