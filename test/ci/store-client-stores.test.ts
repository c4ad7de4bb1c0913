import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import KeyvSqlite from '@keyv/sqlite'
import { afterAll } from 'vitest'
import { urlBackend } from '../_backends'
import { freePort } from '../_ports'
import { describeStoreSuite } from '../_store-suite'
import { describeWatchSuite } from '../_store-suite-watch'
import { throughTheClient } from '../_through-client'

// CI's: the store conformance suite through movie-log/client and the example server on each
// store the server opens by URL (memory through the client runs on every npm test, in
// store-client.test.ts; each store directly, in store-<name>.test.ts).
const folder = mkdtempSync(join(tmpdir(), 'movie-log-client-sqlite-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))
const sqlite = `sqlite://${join(folder, 'movies.sqlite')}`
describeStoreSuite(
  ...throughTheClient(
    urlBackend('SQLite (temp file)', sqlite, () => {
      const store = new KeyvSqlite(`sqlite://${join(folder, 'no-such-folder', 'movies.sqlite')}`)
      // Its open fails at once, and the server's first query comes a turn later: without a
      // query waiting on it, the failed open would be an unhandled rejection.
      store.query('SELECT 1').catch(() => {})
      return store
    }),
  ),
)
// The feed on each store that keeps its history (the bound is tested on memory here, and on
// each store directly).
const unused = () => new Map()
describeWatchSuite(...throughTheClient(urlBackend('SQLite (temp file)', sqlite, unused)), {
  bound: false,
})

const redis = process.env.REDIS_URL
if (redis) {
  const down = `redis://127.0.0.1:${await freePort()}`
  describeStoreSuite(...throughTheClient(urlBackend('Redis', redis, down)))
  describeWatchSuite(...throughTheClient(urlBackend('Redis', redis, down)), { bound: false })
} else describeStoreSuite('REDIS_URL')

const postgres = process.env.POSTGRES_URL
if (postgres) {
  const down = `postgres://postgres@127.0.0.1:${await freePort()}/test`
  describeStoreSuite(...throughTheClient(urlBackend('PostgreSQL', postgres, down)))
  describeWatchSuite(...throughTheClient(urlBackend('PostgreSQL', postgres, down)), {
    bound: false,
  })
} else describeStoreSuite('POSTGRES_URL')
