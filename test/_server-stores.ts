import { join } from 'node:path'
import { describe } from 'vitest'
import { createPrivatePostgres } from './_postgres'
import { type Child, startPrivateRedis } from './_processes'
import { describeWith } from './_services'

/**
 * Each store a server test runs `movie-log serve` on: SQLite always, PostgreSQL and Redis (a
 * private database, a private redis-server) where they are at hand. `describeStore` registers a
 * block for one; `open` gives its store URL, what it made dropped by `cleanup` (call it in a
 * `finally`) or, a process, killed with the test's children (`running`).
 */
export function serverStores(
  tempFolder: (prefix: string) => string,
  running: Child[],
  name: string,
) {
  const cleanups: (() => Promise<unknown>)[] = []
  const stores = [
    {
      name: 'SQLite',
      describeStore: describe,
      open: async () => `sqlite://${join(tempFolder(`movie-log-${name}-`), 'movies.sqlite')}`,
    },
    {
      name: 'PostgreSQL',
      describeStore: (title: string, body: () => void) => describeWith('POSTGRES_URL', title, body),
      open: async () => {
        const postgres = await createPrivatePostgres(name)
        cleanups.push(() => postgres.drop())
        return postgres.url
      },
    },
    {
      name: 'Redis',
      describeStore: (title: string, body: () => void) => describeWith('redis-server', title, body),
      open: async () => {
        const redis = await startPrivateRedis()
        running.push(redis)
        return redis.url
      },
    },
  ]
  const cleanup = () => Promise.all(cleanups.splice(0).map((drop) => drop()))
  return { stores, cleanup }
}
