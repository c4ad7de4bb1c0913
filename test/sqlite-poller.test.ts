// Issue 55, item 8: the SQLite poller opens its connection again after an open that failed, so
// the watchers of that process go on hearing other processes' changes.
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Movie } from '../src/core/movie'
import type { WakeHub } from '../src/drivers/shared/watchers'
import { openSqliteDriver, sqliteOpener } from '../src/drivers/sqlite/driver'
import { openPoller } from '../src/drivers/sqlite/poller'
import { aMovie } from './_movies'
import { sqliteClients, sqliteUrl } from './_sqlite-clients'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe.each(sqliteClients)('the SQLite poller on %s', (client) => {
  it('opens its connection again after an open that failed, and wakes the watchers', async () => {
    const folder = tempFolder('movie-log-poller-')
    const file = join(folder, 'movies.sqlite')
    const writer = await openSqliteDriver(sqliteUrl(file, client), {
      namespace: 'poller',
      connectTimeoutMs: 1000,
    })
    cleanups.push(() => writer.close())
    const open = await sqliteOpener(client)
    // The first open fails as the library fails it (a folder that is not there: CANTOPEN),
    // the next ones open the file.
    const opens: string[] = []
    const pollOn = async () => {
      const path = opens.length === 0 ? join(folder, 'gone', 'movies.sqlite') : file
      opens.push(path)
      return open(path)
    }
    const woken: string[] = []
    const hub: WakeHub = {
      wake: (owner) => woken.push(owner),
      wakeAll: () => {},
      owners: () => [''],
    }
    const poller = openPoller(hub, 'poller', pollOn)
    cleanups.push(() => poller.close())

    await expect.poll(() => opens.length, { timeout: 5000, interval: 20 }).toBeGreaterThan(1)
    // The owner's first read, once the connection is there.
    await expect.poll(() => woken.length, { timeout: 5000, interval: 20 }).toBe(1)
    expect(await writer.log('').put({ id: randomUUID(), ...aMovie() } as Movie)).toBe(true)
    await expect.poll(() => woken.length, { timeout: 5000, interval: 20 }).toBe(2)
    expect(opens).toHaveLength(2)
  })
})
