import type Keyv from 'keyv'
import type { LogDriver } from '../../core/driver'
import type { KeyvLayout } from '../shared/keys'
import { keyvRecords } from '../shared/records'

/** How many record writes pass between two sweeps of the expired ones. */
const SWEEP_EVERY = 1000

/** When each record written through one Map and namespace expires, by owner and keyv key. */
interface Expiries {
  byOwner: Map<string, Map<string, number>>
  writes: number
}

// Per Map and namespace: keyv forgets an expired key only when it is read again, so a process
// that never reads it would keep it; and an owner's records are found here when it is dropped.
const expiries = new WeakMap<object, Map<string, Expiries>>()

function expiriesOf(map: object, namespace: string): Expiries {
  let byNamespace = expiries.get(map)
  if (!byNamespace) {
    byNamespace = new Map()
    expiries.set(map, byNamespace)
  }
  let kept = byNamespace.get(namespace)
  if (!kept) {
    kept = { byOwner: new Map(), writes: 0 }
    byNamespace.set(namespace, kept)
  }
  return kept
}

/**
 * Records in memory, through keyv, with their expired keys deleted now and then: every
 * SWEEP_EVERY writes on one Map and namespace, the records past their time are deleted, so
 * idempotency keys and deletion marks do not pile up in a long-running process.
 */
export function memoryRecords(
  keyv: Keyv,
  map: object,
  namespace: string,
  layout: KeyvLayout,
  now: () => number = Date.now,
): Pick<LogDriver, 'create' | 'read' | 'write'> {
  const records = keyvRecords(keyv, map, layout)
  const note = async (key: string, ttlMs: number) => {
    const kept = expiriesOf(map, namespace)
    let owned = kept.byOwner.get(layout.records)
    if (!owned) {
      owned = new Map()
      kept.byOwner.set(layout.records, owned)
    }
    owned.set(layout.record(key), now() + ttlMs)
    if (++kept.writes % SWEEP_EVERY === 0) await sweep(keyv, kept, now())
  }
  return {
    read: records.read,
    create: async (key, value, ttlMs) => {
      const created = await records.create(key, value, ttlMs)
      if (created) await note(key, ttlMs)
      return created
    },
    write: async (key, value, ttlMs) => {
      await records.write(key, value, ttlMs)
      await note(key, ttlMs)
    },
  }
}

/** The keys of an owner's records written in this process, forgotten here: to delete them. */
export function dropRecords(map: object, namespace: string, layout: KeyvLayout): string[] {
  const kept = expiriesOf(map, namespace)
  const owned = kept.byOwner.get(layout.records)
  kept.byOwner.delete(layout.records)
  return [...(owned?.keys() ?? [])]
}

async function sweep(keyv: Keyv, kept: Expiries, now: number): Promise<void> {
  for (const [owner, owned] of kept.byOwner) {
    for (const [key, expires] of [...owned]) {
      if (expires > now) continue
      owned.delete(key)
      await keyv.delete(key)
    }
    if (owned.size === 0) kept.byOwner.delete(owner)
  }
}
