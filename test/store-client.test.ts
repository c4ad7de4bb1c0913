import { FlakyMap } from './_flaky-map'
import { UNDER_CI } from './_services'
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
// The 2,200 adds past the history's bound go through the client under CI; locally memory's bound
// is held in process (store-memory), and the suite stays quick.
describeWatchSuite(...throughTheClient(memory), { bound: UNDER_CI })

// SQLite, Redis and PostgreSQL through the client: test/ci/store-client-stores.test.ts.
