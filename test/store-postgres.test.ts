import { urlBackend } from './_backends'
import { freePort } from './_ports'
import { describeStoreSuite } from './_store-suite'

const url = process.env.POSTGRES_URL
describeStoreSuite(
  url
    ? urlBackend('PostgreSQL', url, `postgres://postgres@127.0.0.1:${await freePort()}/test`)
    : 'POSTGRES_URL',
)
