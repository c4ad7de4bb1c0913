import type Keyv from 'keyv'
import { isRedisAdapter, type RedisAdapter } from './indexes/redis'
import { isSqlAdapter, type SqlAdapter } from './indexes/sql'

/**
 * Records that only one writer can create: what makes an idempotency key hold across processes.
 * Values are JSON strings; each record expires after its TTL.
 */
export interface Claims {
  /** Stores `value` under `key` unless a live record is there; true when this call stored it. */
  create(key: string, value: string, ttlMs: number): Promise<boolean>
  get(key: string): Promise<string | undefined>
  replace(key: string, value: string, ttlMs: number): Promise<void>
}

/** The claims of a store, kept beside its movies under `idempotency:` keys. */
export function createClaims(keyv: Keyv): Claims {
  const { store } = keyv
  if (store instanceof Map) return mapClaims(store, keyPrefix(keyv))
  if (isRedisAdapter(store) && !keyv.useKeyPrefix) return redisClaims(store)
  if (isSqlAdapter(store)) return sqlClaims(keyv, store)
  return keyvClaims(keyv)
}

const CLAIM_PREFIX = 'idempotency:'

const keyPrefix = (keyv: Keyv) =>
  (keyv.useKeyPrefix && keyv.namespace ? `${keyv.namespace}:` : '') + CLAIM_PREFIX

interface Expiring {
  value: string
  expires: number
}

// One process owns a Map: checking and setting in one synchronous step is atomic.
function mapClaims(map: Map<unknown, unknown>, prefix: string): Claims {
  const live = (key: string) => {
    const entry = map.get(prefix + key) as Expiring | undefined
    return entry && entry.expires > Date.now() ? entry : undefined
  }
  return {
    create: async (key, value, ttlMs) => {
      if (live(key)) return false
      map.set(prefix + key, { value, expires: Date.now() + ttlMs })
      return true
    },
    get: async (key) => live(key)?.value,
    replace: async (key, value, ttlMs) => {
      map.set(prefix + key, { value, expires: Date.now() + ttlMs })
    },
  }
}

// SET NX: Redis lets exactly one writer create the key; PX lets Redis expire it.
function redisClaims(adapter: RedisAdapter): Claims {
  const key = (name: string) => adapter.createKeyPrefix(CLAIM_PREFIX + name, adapter.namespace)
  type SetOptions = { NX?: boolean; PX: number }
  const client = async () =>
    (await adapter.getClient()) as unknown as {
      set(key: string, value: string, options: SetOptions): Promise<string | null>
      get(key: string): Promise<string | null>
    }
  return {
    create: async (name, value, ttlMs) =>
      (await (await client()).set(key(name), value, { NX: true, PX: ttlMs })) === 'OK',
    get: async (name) => (await (await client()).get(key(name))) ?? undefined,
    replace: async (name, value, ttlMs) => {
      await (await client()).set(key(name), value, { PX: ttlMs })
    },
  }
}

// INSERT ... ON CONFLICT DO NOTHING RETURNING: the primary key lets one insert win. Rows keep
// keyv's shape, { value, expires }, so an expired claim is removed before a new one is tried.
function sqlClaims(keyv: Keyv, adapter: SqlAdapter): Claims {
  const prefix = keyPrefix(keyv)
  const { dialect, table, schema = 'public' } = adapter.opts
  const name = dialect === 'postgres' ? `"${schema}"."${table}"` : table
  const run = (sql: string, parameters: unknown[]) =>
    dialect === 'postgres'
      ? adapter.query(
          sql.replace(/\?/g, (_, offset: number) => `$${sql.slice(0, offset).split('?').length}`),
          parameters,
        )
      : adapter.query(sql, ...parameters)
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
    get: async (key) => {
      const existing = await read(key)
      return existing && existing.expires > Date.now() ? existing.value : undefined
    },
    replace: async (key, value, ttlMs) => {
      const row = JSON.stringify({ value, expires: Date.now() + ttlMs })
      await run(`UPDATE ${name} SET value = ? WHERE key = ?`, [row, prefix + key])
    },
  }
}

// Any other keyv store has no create-if-absent: one process serialises its own claims, and
// claims from several processes may race. The README says so.
function keyvClaims(keyv: Keyv): Claims {
  const locks = new Map<string, Promise<unknown>>()
  const serialised = <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const run = (locks.get(key) ?? Promise.resolve()).then(work, work)
    locks.set(key, run)
    run.finally(() => locks.get(key) === run && locks.delete(key)).catch(() => {})
    return run
  }
  return {
    create: (key, value, ttlMs) =>
      serialised(key, async () => {
        if ((await keyv.get(CLAIM_PREFIX + key)) !== undefined) return false
        await keyv.set(CLAIM_PREFIX + key, value, ttlMs)
        return true
      }),
    get: async (key) => (await keyv.get<string>(CLAIM_PREFIX + key)) ?? undefined,
    replace: async (key, value, ttlMs) => {
      await keyv.set(CLAIM_PREFIX + key, value, ttlMs)
    },
  }
}
