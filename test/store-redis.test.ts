import { urlBackend } from './_backends'
import { freePort } from './_ports'
import { describeStoreSuite } from './_store-suite'

const url = process.env.REDIS_URL
describeStoreSuite(
  url ? urlBackend('Redis', url, `redis://127.0.0.1:${await freePort()}`) : 'REDIS_URL',
)
