/**
 * Store URL -> Keyv: the one place the example wires storage backends.
 *
 * `memory://`, `sqlite://PATH`, `redis://` / `rediss://`, `postgres://` / `postgresql://`.
 * Each backend's package is imported only when its scheme is used, so an app that copies this
 * file needs only the adapters it runs on.
 */
import { mkdir } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import Keyv from 'keyv'
import { explainSqliteFailure, redact } from './start-errors'

export { redact }

// Movies are plain JSON. keyv's default serialiser also revives Buffers, running a function over
// every string of every movie read; movie-log stores use plain JSON too, so both agree.
const PLAIN_JSON = { serialize: JSON.stringify, deserialize: JSON.parse }

/** A store URL the example cannot use: malformed, or with a scheme it does not know. */
export class StoreUrlError extends Error {
  override name = 'StoreUrlError'
}

/** A store that cannot be opened (a SQLite file that cannot be created): the message says why. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError'
}

// The first error each store reported while opening: a Redis client that never got ready
// reports only "offline" to the calls after it, and the cause (refused, wrong password) here.
const openingErrors = new WeakMap<Keyv, unknown>()

export interface OpenStoreOptions {
  /** Key namespace of the log. Default `'movie-log'`. */
  namespace?: string
  /** How long a Redis or Postgres call may wait for a connection, in ms. Default 2000. */
  connectTimeout?: number
}

/** Opens the Keyv for a store URL. Connecting is lazy: use `checkStore` to know it answers. */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Keyv> {
  const namespace = options.namespace ?? 'movie-log'
  const connectTimeout = options.connectTimeout ?? 2000
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase()

  switch (scheme) {
    case 'memory':
      // The Map holds the movies themselves (movie-log freezes them): nothing to serialise.
      return new Keyv({
        namespace,
        throwOnErrors: true,
        serialize: undefined,
        deserialize: undefined,
      })
    case 'sqlite': {
      const file = sqlitePath(url)
      const { default: KeyvSqlite } = await import('@keyv/sqlite')
      try {
        await mkdir(dirname(file), { recursive: true })
        // busyTimeout: several processes may write one file; wait for the lock, not fail.
        const store = new KeyvSqlite({ uri: `sqlite://${file}`, busyTimeout: 5000 })
        store.on('error', () => {}) // a file it cannot open fails the query below
        // WAL: a commit appends to one log file and syncs it once, where the default journal
        // syncs several files per commit (three times the adds per second here). Still FULL.
        await store.query('PRAGMA journal_mode = WAL')
        return new Keyv({ store, namespace, throwOnErrors: true, ...PLAIN_JSON })
      } catch (error) {
        throw new StoreOpenError(explainSqliteFailure(file, error))
      }
    }
    case 'redis':
    case 'rediss': {
      const { pathname } = parseUrl(url)
      if (!/^\/?\d*$/.test(pathname)) {
        throw new StoreUrlError(
          `MOVIE_LOG_STORE: '${redact(url)}' names the Redis database '${decodeURIComponent(pathname.slice(1))}': it must be a number, as in redis://HOST:6379/0`,
        )
      }
      const { default: KeyvRedis, createClient } = await import('@keyv/redis')
      // Without these, node-redis queues commands forever while Redis is down, and @keyv/redis
      // can report writes that never happened: fail fast, and reconnect in the background.
      const client = createClient({
        url,
        disableOfflineQueue: true,
        socket: {
          connectTimeout,
          reconnectStrategy: (retries: number) => Math.min(2 ** retries * 100, 2000),
        },
      })
      // KeyvRedis listens for the client's errors, which would otherwise crash the process.
      const store = new KeyvRedis(client, {
        throwOnErrors: true,
        connectionTimeout: connectTimeout,
      })
      // Connect once, here: @keyv/redis connects on first use, and concurrent first commands
      // race each other's connect() and tear the connection down. node-redis then reconnects
      // by itself; until it is ready, commands fail at once.
      let firstError: unknown
      const noteError = (error: unknown) => {
        firstError ??= error
      }
      client.on('error', noteError)
      const ready = new Promise((resolve) => client.once('ready', resolve))
      client.connect().catch(noteError)
      await Promise.race([ready, delay(connectTimeout)])
      client.off('error', noteError)
      const keyv = new Keyv({
        store,
        namespace,
        throwOnErrors: true,
        useKeyPrefix: false,
        ...PLAIN_JSON,
      })
      if (firstError !== undefined) openingErrors.set(keyv, firstError)
      return keyv
    }
    case 'postgres':
    case 'postgresql': {
      // pg would connect to the user's own database: a store URL must say which.
      if (parseUrl(url).pathname.replace(/^\//, '') === '') {
        throw new StoreUrlError(
          `MOVIE_LOG_STORE: '${redact(url)}' names no database (postgres://USER@HOST:5432/DATABASE)`,
        )
      }
      // A pool of its own that it listens to: @keyv/postgres's would end the process when
      // PostgreSQL ends an idle connection (see postgres.ts).
      const { PostgresStore } = await import('./postgres')
      const store = new PostgresStore({ uri: url, connectionTimeoutMillis: connectTimeout })
      return new Keyv({ store, namespace, throwOnErrors: true, ...PLAIN_JSON })
    }
    default:
      throw new StoreUrlError(
        `MOVIE_LOG_STORE: unknown store URL '${redact(url)}' (use memory://, sqlite://PATH, redis://HOST:PORT or postgres://USER@HOST/DB)`,
      )
  }
}

/**
 * Reads one key, so that an unreachable store is found before the first request. Rejects with
 * the first error the store reported while opening, if any: it names the cause.
 */
export async function checkStore(keyv: Keyv): Promise<void> {
  try {
    await keyv.get('movie-log-store-check')
  } catch (error) {
    throw openingErrors.get(keyv) ?? error
  } finally {
    openingErrors.delete(keyv)
  }
}

function sqlitePath(url: string): string {
  const path = url.slice('sqlite://'.length)
  if (!path)
    throw new StoreUrlError(
      `MOVIE_LOG_STORE: '${url}' names no file (sqlite://./data/movies.sqlite)`,
    )
  return resolve(path)
}

function parseUrl(url: string): URL {
  if (!URL.canParse(url) || !new URL(url).hostname) {
    throw new StoreUrlError(`MOVIE_LOG_STORE: '${redact(url)}' is not a valid URL with a host`)
  }
  return new URL(url)
}
