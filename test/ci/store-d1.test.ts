// Issue 35: the D1 driver on Miniflare's local D1, through the suites the SQLite file passes:
// the store suite (pages, dates, edits and deletes, failures, the model), the watch suite and
// the change history. CI's: every statement is a round trip to workerd (about 20 ms here), so
// the 2,200 adds past the history's bound take a minute. The driver suite on D1 is
// test/ci/d1-driver.test.ts.
import { vi } from 'vitest'
import { openD1Driver } from '../../src/drivers/d1/driver'
import { describeChangeSuite } from '../_change-conformance'
import { localD1, registerD1Scheme, unreachableD1 } from '../_d1'
import { describeOwnerSuite } from '../_driver-suite-owners'
import { describeStoreSuite, type StoreSuiteOptions } from '../_store-suite'
import { describeWatchSuite } from '../_store-suite-watch'
import { storeUrlBackend } from '../_url-backend'

// A hang guard sized for 1,050 sequential writes at workerd's round trip, not a speed claim.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 })

const { binding } = localD1()
const openDriver = async (namespace: string) => openD1Driver(await binding(), { namespace })

registerD1Scheme('d1-local', binding)
registerD1Scheme('d1-unreachable', async () => unreachableD1())
const { backend, suite } = storeUrlBackend({
  name: 'D1 (Miniflare)',
  url: 'd1-local://',
  unreachableUrl: 'd1-unreachable://',
})
// Miniflare's binding is HTTP from Node to workerd: 200 concurrent adds queue there for longer
// than the default 5 s store timeout on two busy cores. A Worker's binding has no such hop.
const patient: StoreSuiteOptions = {
  ...suite,
  connect: (store, options) =>
    (suite.connect as NonNullable<StoreSuiteOptions['connect']>)(store, {
      storeTimeoutMs: 30_000,
      ...options,
    }),
}
describeStoreSuite({ ...backend, openDriver }, patient)
describeWatchSuite(backend, patient)
describeOwnerSuite('D1', openDriver)
// No other process reaches Miniflare's in-memory D1: "another connection" is another binding.
// D1 has no LISTEN: another connection's put is seen at the watch's next poll (once a second)
// and its read, so up to a second and a round trip after the put.
describeChangeSuite('D1', openDriver, { bound: 1000, keptAtMost: 1000, wakesWithinMs: 2500 })
