import { FlakyMap } from './_flaky-map'
import { describeStoreSuite } from './_store-suite'

// One Map shared by every log, as one process would share it.
const shared = new Map()

describeStoreSuite({
  name: 'memory (Map)',
  open: async () => shared,
  openUnreachable: async () => new FlakyMap(),
  closeAll: async () => {},
})
