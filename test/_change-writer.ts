// A second process for the change-history tests: opens the driver of a store URL, adds one
// movie to an owner's log, says `written <id>` and exits. Run with `node --import tsx`.
import { randomUUID } from 'node:crypto'
import type { StoreDriver } from '../src/core/driver'
import type { Movie } from '../src/core/movie'
import { openPostgresDriver } from '../src/drivers/postgres'
import { openRedisDriver } from '../src/drivers/redis'
import { openSqliteDriver } from '../src/drivers/sqlite'

const [url = '', namespace = '', owner = ''] = process.argv.slice(2)
const options = { namespace, connectTimeoutMs: 5000 }
const driver: StoreDriver = url.startsWith('sqlite:')
  ? await openSqliteDriver(url, options)
  : /^rediss?(\+cluster)?:/.test(url)
    ? await openRedisDriver(url, options)
    : await openPostgresDriver(url, options)
const movie = {
  id: randomUUID(),
  title: 'From another process',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
  notes: '',
} as Movie
if (!(await driver.log(owner).put(movie))) throw new Error('not written')
console.log(`written ${movie.id}`)
await driver.close()
