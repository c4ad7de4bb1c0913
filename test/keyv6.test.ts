import Keyv6 from 'keyv6'
import type { MovieLogStore } from 'movie-log'
import { FlakyMap } from './_flaky-map'
import { describeStoreSuite } from './_store-suite'

// The conformance suites again with a Keyv from keyv 6 (an npm alias of keyv@^6 here), where
// movie-log itself resolved keyv 5: keyv 6 wraps a Map in a KeyvMemoryAdapter and an adapter
// made for keyv 5 in a KeyvBridgeAdapter. Either way the log is the same.
const opened: Keyv6[] = []
const keep = (keyv: Keyv6) => {
  opened.push(keyv)
  return keyv as unknown as MovieLogStore
}

const shared = new Map()
describeStoreSuite({
  name: 'keyv 6, memory (Map)',
  open: async (namespace) => keep(new Keyv6({ store: shared, namespace })),
  openUnreachable: async () => keep(new Keyv6({ store: new FlakyMap(), namespace: 'down' })),
  closeAll: async () => {},
})

// keyv 6 over a @keyv/sqlite adapter (the scan): test/ci/keyv6-sqlite.test.ts.
