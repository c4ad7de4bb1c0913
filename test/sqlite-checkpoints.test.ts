// Issue 62 (and 55): the write-ahead log's checkpoints, off the commits. A driver's connections
// checkpoint inside a commit only past a backstop; after commits, a checkpoint runs on a
// connection of its own (a worker thread on node:sqlite, the thread pool on sqlite3), one at a
// time: after 500 writes of this process (at most one every 200 ms), and once commits stop.
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { builtinCheckpoints } from '../src/drivers/sqlite/builtin'
import {
  BACKSTOP_PAGES,
  type CheckpointRunner,
  checkpointing,
} from '../src/drivers/sqlite/checkpoints'
import type { SqliteClient } from '../src/drivers/sqlite/client'
import { sqliteOpener } from '../src/drivers/sqlite/driver'
import { sqliteClients } from './_sqlite-clients'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()
const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  vi.useRealTimers()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A client whose commits do nothing, and runners that count and can be made to fail. */
function fakes() {
  const client: SqliteClient = {
    name: 'sqlite3',
    query: async () => [],
    commit: async (writes) => writes.map(() => ({ ok: true, rows: [] })),
    close: async () => {},
  }
  const calls = { opened: 0, checkpoints: 0, closed: 0 }
  const finish: (() => void)[] = []
  let failNext = false
  const open = async (): Promise<CheckpointRunner> => {
    calls.opened++
    return {
      checkpoint: () => {
        calls.checkpoints++
        if (failNext) {
          failNext = false
          return Promise.reject(new Error('SQLITE_IOERR'))
        }
        return new Promise<void>((done) => finish.push(done))
      },
      close: async () => {
        calls.closed++
      },
    }
  }
  const finishAll = async () => {
    for (const done of finish.splice(0)) done()
    await vi.advanceTimersByTimeAsync(0)
  }
  return {
    client,
    open,
    calls,
    finishAll,
    failOnce: () => {
      failNext = true
    },
  }
}

/** `count` writes, as one commit of the group takes them. */
const writes = (count: number) =>
  Array.from({ length: count }, () => [['INSERT INTO t VALUES (1)', []]] as const)
const aWrite = writes(1)

describe('checkpoints after commits', () => {
  it('begins one once 500 writes are committed, none beside it, the next 200 ms after it', async () => {
    vi.useFakeTimers()
    const { client, open, calls, finishAll } = fakes()
    const checkpointed = checkpointing(client, open)
    await checkpointed.commit(writes(499))
    expect(calls.checkpoints).toBe(0)
    await checkpointed.commit(aWrite)
    expect(calls).toMatchObject({ opened: 1, checkpoints: 1 })
    // Commits while it runs, past 200 ms: none begins beside it.
    await checkpointed.commit(writes(300))
    await vi.advanceTimersByTimeAsync(500)
    await checkpointed.commit(writes(300))
    expect(calls.checkpoints).toBe(1)
    // Once it ends, the writes committed meanwhile get the next, on the same runner.
    await finishAll()
    expect(calls).toMatchObject({ opened: 1, checkpoints: 2 })
    // 500 more within 200 ms of its start: the next waits for the commits to stop.
    await finishAll()
    await checkpointed.commit(writes(500))
    await vi.advanceTimersByTimeAsync(999)
    expect(calls.checkpoints).toBe(2)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls.checkpoints).toBe(3)
    await finishAll()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls.checkpoints).toBe(3)
    await checkpointed.close()
    expect(calls.closed).toBe(1)
  })

  it('leaves a few adds now and then to a checkpoint once they stop, not one each', async () => {
    vi.useFakeTimers()
    const { client, open, calls } = fakes()
    const checkpointed = checkpointing(client, open)
    // An add every 20 ms for 5 s, as a server's beside an import in another process.
    for (let at = 0; at < 250; at++) {
      await checkpointed.commit(aWrite)
      await vi.advanceTimersByTimeAsync(20)
    }
    expect(calls.checkpoints).toBe(0)
    await vi.advanceTimersByTimeAsync(1000)
    expect(calls.checkpoints).toBe(1)
  })

  it('closes a runner whose checkpoint failed and opens another for the next', async () => {
    vi.useFakeTimers()
    const { client, open, calls, failOnce } = fakes()
    const checkpointed = checkpointing(client, open)
    failOnce()
    await checkpointed.commit(writes(500))
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toMatchObject({ opened: 1, checkpoints: 1, closed: 1 })
    await vi.advanceTimersByTimeAsync(200)
    await checkpointed.commit(writes(500))
    expect(calls).toMatchObject({ opened: 2, checkpoints: 2 })
  })

  it('waits for the checkpoint running when the client closes, then closes its runner', async () => {
    vi.useFakeTimers()
    const { client, open, calls, finishAll } = fakes()
    const checkpointed = checkpointing(client, open)
    await checkpointed.commit(writes(500))
    let closed = false
    const closing = checkpointed.close().then(() => {
      closed = true
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(closed).toBe(false)
    await finishAll()
    await closing
    expect(calls.closed).toBe(1)
  })
})

describe.each(sqliteClients)('checkpoints of a file on %s', (name) => {
  const apart = name === 'sqlite3' || builtinCheckpoints() !== undefined
  it.skipIf(!apart)(
    'copies a commit into the database on a connection of its own, SQLite’s own left to the backstop',
    async () => {
      const file = join(tempFolder('movie-log-checkpoints-'), 'checkpoints.sqlite')
      const client = await (await sqliteOpener(name))(file)
      cleanups.push(() => client.close())
      await client.query('PRAGMA journal_mode = WAL', [])
      const [setting] = await client.query('PRAGMA wal_autocheckpoint', [])
      expect(setting?.wal_autocheckpoint).toBe(BACKSTOP_PAGES)
      await client.commit([[['CREATE TABLE t (v BLOB)', []]]])
      const before = statSync(file).size
      // 50 pages, far under any page count that makes SQLite checkpoint in the commit.
      await client.commit([[['INSERT INTO t VALUES (zeroblob(200000))', []]]])
      // Copied into the database file by the checkpoint once commits stop; a hang guard bounds it.
      await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 200_000), {
        timeout: 30_000,
        interval: 20,
      })
    },
  )
})
