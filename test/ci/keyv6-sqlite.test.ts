import { join } from 'node:path'
import KeyvSqlite from '@keyv/sqlite'
import Keyv6 from 'keyv6'
import type { MovieLogStore } from 'movie-log'
import { describeStoreSuite } from '../_store-suite'
import { tempFolders } from '../_temp'

// CI's (the scan's walks take seconds): the store suite with a keyv 6 Keyv over @keyv/sqlite.
// The conformance suites again with a Keyv from keyv 6 (an npm alias of keyv@^6 here), where
// movie-log itself resolved keyv 5: keyv 6 wraps a Map in a KeyvMemoryAdapter and an adapter
// made for keyv 5 in a KeyvBridgeAdapter. Either way the log is the same.
const tempFolder = tempFolders()
const folder = tempFolder('movie-log-keyv6-')
const opened: Keyv6[] = []
const keep = (keyv: Keyv6) => {
  opened.push(keyv)
  return keyv as unknown as MovieLogStore
}

// As src/server/store.ts opens SQLite: WAL, and a wait for the lock rather than a failure.
const sqlite = async () => {
  const store = new KeyvSqlite({
    uri: `sqlite://${join(folder, 'movies.sqlite')}`,
    busyTimeout: 5000,
  })
  await store.query('PRAGMA journal_mode = WAL')
  return store
}

// A @keyv/sqlite adapter gets the scan driver, whose compare-and-set holds within one process:
// one Keyv per diary, as one process would share it.
const diaries = new Map<string, MovieLogStore>()
describeStoreSuite({
  name: 'keyv 6, SQLite (the scan)',
  scans: true,
  open: async (namespace) => {
    const kept = diaries.get(namespace) ?? keep(new Keyv6({ store: await sqlite(), namespace }))
    diaries.set(namespace, kept)
    return kept
  },
  // A file in a folder that does not exist cannot be opened.
  openUnreachable: async () =>
    keep(new Keyv6({ store: new KeyvSqlite(`sqlite://${join(folder, 'none', 'x.sqlite')}`) })),
  closeAll: async () => {
    await Promise.allSettled(opened.splice(0).map((keyv) => keyv.disconnect()))
  },
})
