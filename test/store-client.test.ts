import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import KeyvSqlite from '@keyv/sqlite'
import { afterAll } from 'vitest'
import { urlBackend } from './_backends'
import { FlakyMap } from './_flaky-map'
import { freePort } from './_ports'
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

const folder = mkdtempSync(join(tmpdir(), 'movie-log-client-sqlite-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
describeStoreSuite(
  ...throughTheClient(
    urlBackend('SQLite (temp file)', `sqlite://${join(folder, 'movies.sqlite')}`, () => {
      const store = new KeyvSqlite(`sqlite://${join(folder, 'no-such-folder', 'movies.sqlite')}`)
      // Its open fails at once, and the server's first query comes a turn later: without a
      // query waiting on it, the failed open would be an unhandled rejection.
      store.query('SELECT 1').catch(() => {})
      return store
    }),
  ),
)

const redis = process.env.REDIS_URL
if (redis) {
  describeStoreSuite(
    ...throughTheClient(urlBackend('Redis', redis, `redis://127.0.0.1:${await freePort()}`)),
  )
} else describeStoreSuite('REDIS_URL')

const postgres = process.env.POSTGRES_URL
if (postgres) {
  const down = `postgres://postgres@127.0.0.1:${await freePort()}/test`
  describeStoreSuite(...throughTheClient(urlBackend('PostgreSQL', postgres, down)))
} else describeStoreSuite('POSTGRES_URL')
