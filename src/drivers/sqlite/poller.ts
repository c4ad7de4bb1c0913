/** The wake source of a SQLite store: a poll of `PRAGMA data_version` while anyone watches. */

import type { WakeHub, WakeSource } from '../shared/watchers'
import { sqlStatements } from '../sql/statements'
import type { SqliteClient } from './client'

/** How often the poller asks whether another connection wrote the file, while anyone watches. */
const POLL_MS = 250

/**
 * The wake source of a SQLite store: every POLL_MS while anyone watches, `PRAGMA data_version`
 * on a connection of its own; when it moved (another connection committed) or an owner is newly
 * watched, each watched owner's latest change is read, and the owners whose latest moved are
 * woken. A newly watched owner is woken once it is read (its first "ready").
 */
export function openPoller(
  hub: WakeHub,
  namespace: string,
  pollOn: () => Promise<SqliteClient>,
): WakeSource {
  const latest = sqlStatements('sqlite').latestChange
  const seen = new Map<string, unknown>()
  let version: unknown
  let connection: Promise<SqliteClient> | undefined
  let running: Promise<void> | undefined
  const tick = async () => {
    const owners = new Set(hub.owners())
    if (owners.size === 0) {
      seen.clear()
      return
    }
    // A connection that failed to open is opened again at the next tick, not kept as failed:
    // a file busy or missing for a moment would leave the watchers deaf for good.
    connection ??= pollOn().catch((error: unknown) => {
      connection = undefined
      throw error
    })
    const { query } = await connection
    const [row] = await query('PRAGMA data_version', [])
    const moved = row?.data_version !== version
    version = row?.data_version
    for (const owner of owners) {
      if (!moved && seen.has(owner)) continue
      const [last] = await query(latest, [namespace, owner])
      if (seen.has(owner) && seen.get(owner) === last?.seq) continue
      seen.set(owner, last?.seq)
      hub.wake(owner)
    }
    for (const owner of seen.keys()) if (!owners.has(owner)) seen.delete(owner)
  }
  const timer = setInterval(() => {
    // A tick that failed (the file busy, or closed) is tried again at the next.
    running ??= tick()
      .catch(() => {})
      .finally(() => {
        running = undefined
      })
  }, POLL_MS)
  // Polling never keeps a process alive on its own.
  timer.unref()
  return {
    close: async () => {
      clearInterval(timer)
      await running
      await (await connection?.catch(() => undefined))?.close()
    },
  }
}
