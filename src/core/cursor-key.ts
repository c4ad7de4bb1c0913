/**
 * The key a log signs its cursors with (HMAC-SHA-256, Web Crypto): kept in the log's store as a
 * record, made by the first process that needs it, so every process on the store signs and
 * checks with the same key, on every runtime; dropping the log drops it.
 */
import type { LogDriver } from './driver'
import { createLru, type Lru } from './lru'

type KeyRecords = Pick<LogDriver, 'read' | 'create'>

// The record's name among the log's records (idempotency claims are hex, deletions `deleted:`).
const RECORD = 'cursor-key'
// Records expire: a key lasts ten years, and then every cursor made with it is refused (400).
const KEY_TTL_MS = 10 * 365 * 24 * 60 * 60 * 1000
// Owners whose key a process keeps at once (one record read each, then none).
const KEYS_KEPT = 10_000

// Per store driver (what the composition root makes once per store), per owner.
const kept = new WeakMap<object, Lru<string, Promise<CryptoKey>>>()

/**
 * The cursor key of `owner`'s log on `store`, read (or made) once per process; `again` reads it
 * again from the store, for a cursor the kept key does not verify (another process may have made
 * a new one, after a drop).
 */
export function cursorKeyOf(
  store: object,
  owner: string,
  records: KeyRecords,
  { again = false } = {},
): Promise<CryptoKey> {
  const keys = kept.get(store) ?? createLru<string, Promise<CryptoKey>>(KEYS_KEPT)
  kept.set(store, keys)
  let key = again ? undefined : keys.get(owner)
  if (!key) {
    const reading = readKey(records)
    // A store that failed is asked again by the next call, not remembered as failing.
    reading.catch(() => keys.get(owner) === reading && keys.delete(owner))
    keys.set(owner, reading)
    key = reading
  }
  return key
}

/** Forgets `owner`'s key in this process: its log was dropped, and its key with it. */
export function forgetCursorKey(store: object, owner: string): void {
  kept.get(store)?.delete(owner)
}

async function readKey(records: KeyRecords): Promise<CryptoKey> {
  // Read, or made here; when another process made it first, read again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const secret = (await records.read(RECORD)) ?? (await make(records))
    if (secret !== undefined) {
      const raw = new TextEncoder().encode(secret)
      return crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    }
  }
  throw new Error('movie-log: the store keeps no cursor key, nor lets one be made')
}

async function make(records: KeyRecords): Promise<string | undefined> {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  const secret = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
  return (await records.create(RECORD, secret, KEY_TTL_MS)) ? secret : undefined
}
