import { openPostgresDriver } from '../src/drivers/postgres/driver'
import { describeDriverSuite } from './_driver-suite'
import { describeOwnerSuite } from './_driver-suite-owners'
import { freePort } from './_ports'
import { describeStoreSuite } from './_store-suite'
import { describeWatchSuite } from './_store-suite-watch'
import { storeUrlBackend } from './_url-backend'

const url = process.env.POSTGRES_URL
if (url) {
  const unreachableUrl = `postgres://postgres@127.0.0.1:${await freePort()}/test`
  const openDriver = (namespace: string) =>
    openPostgresDriver(url, { namespace, connectTimeoutMs: 1000 })

  // The store URL: the PostgreSQL driver on pg.
  const { backend, suite } = storeUrlBackend({
    name: 'PostgreSQL',
    url,
    unreachableUrl,
    // Each test wrote under namespaces of its own: leave the shared database clean.
    dropAll: async (namespaces) => {
      for (const namespace of namespaces) {
        const driver = await openDriver(namespace)
        await driver.drop('').finally(() => driver.close())
      }
    },
  })
  describeStoreSuite({ ...backend, openDriver }, suite)
  // The history in the database (issue 29): `createMovieLog(url)` and `createMovieLogs(url)`.
  describeWatchSuite(backend)
  describeDriverSuite('PostgreSQL, an owner named', openDriver, 'alice:{x}')
  describeOwnerSuite('PostgreSQL', openDriver)
} else describeStoreSuite('POSTGRES_URL')
