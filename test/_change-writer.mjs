// A second process for the change-history tests: opens the driver of a store URL, adds one
// movie to an owner's log, says `written <id>` and exits. Plain JavaScript over the built
// package (dist/, built before any test), by its store subpaths: through tsx, each start took
// about 0.7 s of CPU.
import { randomUUID } from 'node:crypto'

const [url = '', namespace = '', owner = ''] = process.argv.slice(2)
const store = url.startsWith('sqlite:')
  ? 'sqlite'
  : /^rediss?(\+cluster)?:/.test(url)
    ? 'redis'
    : 'postgres'
const adapter = (await import(`movie-log/${store}`))[store](url)
const driver = await adapter.open({ namespace, connectTimeoutMs: 5000 })
const movie = {
  id: randomUUID(),
  title: 'From another process',
  screenedDate: '2024-05-01T20:30:00.000',
  releaseYear: 1995,
  imdbLink: 'https://www.imdb.com/title/tt0113277/',
  notes: '',
}
if (!(await driver.log(owner).put(movie))) throw new Error('not written')
console.log(`written ${movie.id}`)
await driver.close()
