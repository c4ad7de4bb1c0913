import type { Movie } from '../core/movie'
import { MOVIE_KEY_PREFIX } from './types'

interface Backfill {
  getClient(): Promise<{
    get(key: string): Promise<string | null>
    set(key: string, value: string): Promise<unknown>
    eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
  }>
  createKeyPrefix(key: string, namespace?: string): string
  namespace?: string
  iterator(namespace?: string): AsyncGenerator<[string, unknown]>
}

// KEYS: id index, date index. ARGV: id, date member. Idempotent: ZADD of a member it has is a no-op.
const ADD = `redis.call('ZADD', KEYS[1], 0, ARGV[1])
redis.call('ZADD', KEYS[2], 0, ARGV[2])
return 1`

/**
 * The indexes of movies stored before this version of them (or by a scan-driver writer),
 * built once per namespace and remembered in Redis by a flag; `ensure` resolves once they are.
 * A build that failed is tried again by the next call.
 */
export function redisIndexes(
  adapter: Backfill,
  keys: { ids: string; dates: string },
  decode: (value: string) => Promise<Movie | undefined>,
): () => Promise<void> {
  const flag = adapter.createKeyPrefix('movie-indexes-2-ready', adapter.namespace)
  let ready: Promise<void> | undefined
  let built = false

  async function build(): Promise<void> {
    const client = await adapter.getClient()
    if ((await client.get(flag)) !== null) return
    for await (const [name, value] of adapter.iterator(adapter.namespace)) {
      if (!name.startsWith(MOVIE_KEY_PREFIX) || typeof value !== 'string') continue
      const movie = await decode(value)
      if (!movie) continue
      const member = `${movie.screenedDate}|${movie.id}`
      await client.eval(ADD, { keys: [keys.ids, keys.dates], arguments: [movie.id, member] })
    }
    await client.set(flag, '1')
  }

  return () => {
    if (built) return Promise.resolve()
    ready ??= build().then(
      () => {
        built = true
      },
      (error: unknown) => {
        ready = undefined
        throw error
      },
    )
    return ready
  }
}
