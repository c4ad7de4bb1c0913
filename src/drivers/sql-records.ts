import type Keyv from 'keyv'
import { keyvKeyPrefix } from './keyv'
import { type SqlAdapter, sqlRunner, sqlTable } from './sql-adapter'
import { type MovieDriver, RECORD_KEY_PREFIX } from './types'

interface Expiring {
  value: string
  expires: number
}

/**
 * Records on SQLite and PostgreSQL. INSERT ... ON CONFLICT DO NOTHING RETURNING: the primary
 * key lets one insert win. Rows keep keyv's shape, `{ value, expires }`, so an expired record
 * is removed before a new one is tried.
 */
export function sqlRecords(
  keyv: Keyv,
  adapter: SqlAdapter,
): Pick<MovieDriver, 'create' | 'read' | 'write'> {
  const prefix = keyvKeyPrefix(keyv) + RECORD_KEY_PREFIX
  const run = sqlRunner(adapter)
  const name = sqlTable(adapter)
  const read = async (key: string) => {
    const [row] = await run(`SELECT value FROM ${name} WHERE key = ?`, [prefix + key])
    return row ? { raw: row.value, ...(JSON.parse(row.value) as Expiring) } : undefined
  }
  const insert = async (key: string, value: string, ttlMs: number) => {
    const row = JSON.stringify({ value, expires: Date.now() + ttlMs })
    const inserted = await run(
      `INSERT INTO ${name} (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING RETURNING key`,
      [prefix + key, row],
    )
    return inserted.length === 1
  }
  return {
    create: async (key, value, ttlMs) => {
      if (await insert(key, value, ttlMs)) return true
      const existing = await read(key)
      if (!existing || existing.expires > Date.now()) return false
      // Expired: remove exactly that row (another writer may have replaced it), then try once more.
      await run(`DELETE FROM ${name} WHERE key = ? AND value = ?`, [prefix + key, existing.raw])
      return insert(key, value, ttlMs)
    },
    read: async (key) => {
      const existing = await read(key)
      return existing && existing.expires > Date.now() ? existing.value : undefined
    },
    write: async (key, value, ttlMs) => {
      const row = JSON.stringify({ value, expires: Date.now() + ttlMs })
      await run(`UPDATE ${name} SET value = ? WHERE key = ?`, [row, prefix + key])
    },
  }
}
