import Keyv, { type KeyvStoreAdapter } from 'keyv'

// What a store that went away raises: a socket error. Anything else a store throws is a bug
// (issue 37), answered 500, not 503.
const storeDown = () =>
  Object.assign(new Error('store down: secret-internal-detail'), { code: 'ECONNRESET' })

/** A Map store that fails every call while `failing` is true, as a store that went away. */
export class FlakyMap extends Map {
  failing = true

  private check(): void {
    if (this.failing) throw storeDown()
  }
  override get(key: unknown) {
    this.check()
    return super.get(key)
  }
  override set(key: unknown, value: unknown) {
    this.check()
    return super.set(key, value)
  }
  override keys() {
    this.check()
    return super.keys()
  }
  override entries() {
    this.check()
    return super.entries()
  }
  override [Symbol.iterator]() {
    return this.entries()
  }
}

/**
 * A Keyv over a store that lists by scanning (each page reads every movie) and fails once it
 * has read `failAfter(n)` entries more: a store that goes away in the middle of a listing.
 */
export function flakyScanStore(): { keyv: Keyv; failAfter(reads: number): void } {
  const map = new Map<string, unknown>()
  let readsLeft = Number.POSITIVE_INFINITY
  const adapter = {
    get: async (key: string) => map.get(key),
    set: async (key: string, value: unknown) => {
      map.set(key, value)
      return true
    },
    delete: async (key: string) => map.delete(key),
    clear: async () => map.clear(),
    has: async (key: string) => map.has(key),
  }
  const keyv = new Keyv({ store: adapter as unknown as KeyvStoreAdapter })
  keyv.iterator = async function* () {
    for (const [key, value] of map) {
      if (readsLeft-- <= 0) throw storeDown()
      // Keys as keyv's own iterators give them: without the namespace.
      const name = key.slice(`${keyv.namespace}:`.length)
      yield [name, ((await keyv.deserializeData(value as string)) as { value: unknown }).value]
    }
  }
  return { keyv, failAfter: (reads) => (readsLeft = reads) }
}

/** A Keyv over a store behind a dead connection: every call hangs (a Map cannot). */
export function hungStore(): Keyv {
  const never = () => new Promise<never>(() => {})
  const adapter = { get: never, set: never, delete: never, clear: never, has: never }
  const hung = new Keyv({ store: adapter as unknown as KeyvStoreAdapter })
  hung.iterator = async function* () {
    yield await never()
  }
  return hung
}
