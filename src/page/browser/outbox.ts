/**
 * What the page keeps on this device, in IndexedDB: the adds waiting to be sent (each with the
 * Idempotency-Key chosen when it was made, so a resend after a lost answer makes no second
 * movie), and the diary as last seen, shown when the server cannot be reached. Each person's
 * apart: one database per log and person (./token.ts `person`), so that another person on the
 * same browser sees neither, and an add waiting is sent with its person's token only.
 */
import type { Movie } from '../../client/index'

/** An add not yet answered by the server. */
export interface WaitingAdd {
  /** Its Idempotency-Key, chosen when it was made and sent with every attempt. */
  key: string
  values: Record<string, unknown>
  /** When it was made (ms since the epoch): the order they are sent in. */
  madeAt: number
}

/** The first page of the diary as last shown, and when. */
export interface SeenDiary {
  movies: Movie[]
  at: number
}

export interface Outbox {
  waiting(): Promise<WaitingAdd[]>
  keep(add: WaitingAdd): Promise<void>
  sent(key: string): Promise<void>
  saveDiary(diary: SeenDiary): Promise<void>
  lastDiary(): Promise<SeenDiary | undefined>
}

const ADDS = 'adds'
const SEEN = 'seen'

/** The outbox of `person` for the log at `logUrl` (two mounts keep theirs apart too). */
export function openOutbox(logUrl: string, person: Promise<string>): Outbox {
  const opening = person.then(
    (name) =>
      new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(`movie-log ${logUrl} ${name}`, 1)
        request.onupgradeneeded = () => {
          request.result.createObjectStore(ADDS, { keyPath: 'key' })
          request.result.createObjectStore(SEEN)
        }
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error)
      }),
  )
  const run = async <T>(
    store: string,
    mode: IDBTransactionMode,
    call: (store: IDBObjectStore) => IDBRequest,
  ): Promise<T> => {
    const db = await opening
    return new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(store, mode)
      const request = call(transaction.objectStore(store))
      // Resolved once the transaction commits: a kept add is on disk before it is sent.
      transaction.oncomplete = () => resolve(request.result as T)
      transaction.onerror = () => reject(transaction.error)
      transaction.onabort = () => reject(transaction.error)
    })
  }
  return {
    async waiting() {
      const adds = await run<WaitingAdd[]>(ADDS, 'readonly', (store) => store.getAll())
      return adds.sort((a, b) => a.madeAt - b.madeAt)
    },
    keep: (add) => run(ADDS, 'readwrite', (store) => store.put(add)),
    sent: (key) => run(ADDS, 'readwrite', (store) => store.delete(key)),
    saveDiary: (diary) => run(SEEN, 'readwrite', (store) => store.put(diary, 'diary')),
    lastDiary: () => run(SEEN, 'readonly', (store) => store.get('diary')),
  }
}
