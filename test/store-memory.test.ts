import type { MovieLogStore } from 'movie-log'
import { describeStoreSuite } from './_store-suite'

// One Map shared by every log, as one process would share it.
const shared = new Map()

class UnreachableMap extends Map {
  override get(): never {
    throw new Error('memory store down')
  }
  override set(): never {
    throw new Error('memory store down')
  }
  override keys(): never {
    throw new Error('memory store down')
  }
}

describeStoreSuite({
  name: 'memory (Map)',
  open: async () => shared,
  openUnreachable: async (): Promise<MovieLogStore> => new UnreachableMap(),
  closeAll: async () => {},
})
