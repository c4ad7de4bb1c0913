import { FlakyMap } from './_flaky-map'
import { describeStoreSuite, type StoreBackend } from './_store-suite'
import { describeWatchSuite } from './_store-suite-watch'
import { throughTheClient } from './_through-client'

// The store conformance suite through movie-log/client and the example server, per store.
const shared = new Map()
const memory: StoreBackend = {
  name: 'memory (Map)',
  open: async () => shared,
  openUnreachable: async () => new FlakyMap(),
  closeAll: async () => {},
}
describeStoreSuite(...throughTheClient(memory))
describeWatchSuite(...throughTheClient(memory))

// SQLite, Redis and PostgreSQL through the client: test/ci/store-client-stores.test.ts.
