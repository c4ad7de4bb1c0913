import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import KeyvRedis, { createCluster } from '@keyv/redis'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { StoreDriver } from '../src/core/driver'
import { UnsupportedStoreError } from '../src/core/errors'
import type { Movie } from '../src/core/movie'
import { redisClientOf } from '../src/drivers/redis/client'
import { parseClusterUrl } from '../src/drivers/redis/cluster'
import { checkRedisServer, type RedisClient } from '../src/drivers/redis/connect'
import { openRedisDriver, redisDriverOver } from '../src/drivers/redis/driver'
import { classifyRedisFailure } from '../src/drivers/shared/redis-failures'
import { aMovie } from './_movies'
import { freePort } from './_ports'
import { type Child, startPrivateClusterNode, startPrivateRedis, stop } from './_processes'
import { describeWith } from './_services'
import { tempFolders } from './_temp'

// Opening the Redis driver: URLs, versions, failures, fail-fast and reconnecting, a caller's client.
const options = { namespace: 'movie-log-start-test', connectTimeoutMs: 500 }
const movie = { ...aMovie(), notes: '', id: 'id-1' } as Movie
const exec = promisify(execFile)

describe('Redis driver: what it refuses and what it calls a store failure', () => {
  it('refuses a database that is not a number, naming it, the password hidden', async () => {
    const opening = openRedisDriver('redis://me:s3cret@127.0.0.1:6379/movies', options)
    await expect(opening).rejects.toThrow(UnsupportedStoreError)
    await expect(opening).rejects.toThrow(/'movies'.*must be a number/)
    await expect(opening).rejects.not.toThrow(/s3cret/)
    await expect(openRedisDriver('redis://', options)).rejects.toThrow(UnsupportedStoreError)
  })

  it('reads a redis+cluster:// URL: its nodes, user, password, TLS and wait; refuses others', () => {
    expect(
      parseClusterUrl('redis+cluster://u:p%40ss@10.0.0.1:7000,cache,[::1]:7001?wait=2'),
    ).toEqual({
      rootNodes: ['redis://10.0.0.1:7000', 'redis://cache:6379', 'redis://[::1]:7001'],
      username: 'u',
      password: 'p@ss',
      tls: false,
      wait: 2,
    })
    expect(parseClusterUrl('rediss+cluster://:s@h:1/')).toEqual({
      rootNodes: ['rediss://h:1'],
      password: 's',
      tls: true,
    })
    for (const bad of [
      'redis+cluster://',
      'redis+cluster://h:1/2',
      'redis+cluster://h:1,,h:2',
      'redis+cluster://h:1?wait=x',
      'redis+cluster://:s3cret@h:1?db=2',
    ]) {
      expect(() => parseClusterUrl(bad), bad).toThrow(UnsupportedStoreError)
      expect(() => parseClusterUrl(bad), bad).not.toThrow(/s3cret/)
    }
    expect(() => parseClusterUrl('redis://h:1?wait=11')).toThrow(/not a Redis Cluster URL/)
  })

  it('refuses a namespace with a brace, which would break the hash tag', async () => {
    await expect(
      openRedisDriver('redis://127.0.0.1', { ...options, namespace: 'a{b' }),
    ).rejects.toThrow(/namespace 'a\{b'/)
  })

  it('refuses a Redis older than 6.2, naming the version found in INFO server, and a cluster node', () => {
    const info = (version: string) =>
      `# Server\r\nredis_version:${version}\r\nredis_mode:standalone\r\n`
    expect(() => checkRedisServer(info('6.0.16'), 'The Redis at redis://cache')).toThrow(
      new UnsupportedStoreError(
        'The Redis at redis://cache is version 6.0.16: movie-log needs Redis 6.2 or later',
      ),
    )
    expect(() => checkRedisServer(info('5.0.7'), 'R')).toThrow(/5\.0\.7/)
    expect(() => checkRedisServer('# Server\r\n', 'R')).toThrow(/no version/)
    expect(() => checkRedisServer(`${info('7.0.15')}redis_mode:cluster\r\n`, 'R')).toThrow(
      /R is a Redis Cluster node/,
    )
    for (const version of ['6.2.0', '6.2.14', '7.0.15', '10.0.1'])
      expect(() => checkRedisServer(info(version), 'R')).not.toThrow()
  })

  it('refuses, at the first call, a Redis too old behind a client the caller made', async () => {
    const calls: string[] = []
    const client = fakeClient('redis_version:6.0.9\r\n', calls)
    const driver = redisDriverOver(client, options)
    const log = driver.log('alice')
    expect(calls).toEqual([]) // a log costs no I/O
    const error = await log.get('x').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(UnsupportedStoreError)
    expect((error as Error).message).toMatch(/version 6\.0\.9/)
    expect(driver.classifyFailure(error)).toBeUndefined()
    expect(calls).toEqual(['info'])
  })

  it('calls connection errors and replies that say the server cannot serve store failures, bugs not', () => {
    class ClientOfflineError extends Error {}
    class SimpleError extends Error {}
    const failures = [
      new ClientOfflineError('The client is offline'),
      Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
      new SimpleError("READONLY You can't write against a read only replica."),
      new SimpleError('LOADING Redis is loading the dataset in memory'),
      new SimpleError("OOM command not allowed when used memory > 'maxmemory'."),
      new SimpleError('WRONGPASS invalid username-password pair or user is disabled.'),
      new SimpleError('NOAUTH Authentication required.'),
      new SimpleError('MASTERDOWN Link with MASTER is down'),
      new SimpleError('ERR max number of clients reached'),
    ]
    for (const error of failures)
      expect([error.message, classifyRedisFailure(error) !== undefined]).toEqual([
        error.message,
        true,
      ])
    const bugs = [
      new TypeError('Cannot read properties of undefined'),
      new SimpleError('ERR user_script:1: Script attempted to access nonexistent global variable'),
      new SimpleError('WRONGTYPE Operation against a key holding the wrong kind of value'),
      new SimpleError("ERR wrong number of arguments for 'set' command"),
      new UnsupportedStoreError('too old'),
      'not an error',
    ]
    for (const error of bugs)
      expect([String(error), classifyRedisFailure(error) !== undefined]).toEqual([
        String(error),
        false,
      ])
    // The core's reasons still read them.
    expect(classifyRedisFailure(failures[2])?.reason).toBe('read-only')
    expect(classifyRedisFailure(failures[5])?.reason).toBe('auth-failed')
  })

  it("reaches a KeyvRedis's client only through its documented `client`, a cluster's too", () => {
    const store = new KeyvRedis('redis://127.0.0.1:6379')
    expect(redisClientOf(store)).toBe(store.client)
    // As @keyv/redis's README builds one (never connected here).
    const nodes = createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:7000' }] })
    const cluster = new KeyvRedis(nodes as ConstructorParameters<typeof KeyvRedis>[0])
    expect(redisClientOf(cluster)).toBe(nodes)
    expect(redisClientOf(new Map())).toBeUndefined()
    expect(redisClientOf(undefined)).toBeUndefined()
  })
})

const folder = tempFolders()

describeWith('redis-server', 'Redis driver on a private Redis', () => {
  const running: Child[] = []
  const opened: StoreDriver[] = []
  afterEach(async () => {
    await Promise.allSettled(opened.splice(0).map((driver) => driver.close()))
    await Promise.all(running.splice(0).map((child) => stop(child, 'SIGKILL')))
  })
  const open = async (url: string) => {
    const driver = await openRedisDriver(url, options)
    opened.push(driver)
    return driver
  }

  it('fails fast on a closed port, naming the cause, and works once a Redis is there', async () => {
    const port = await freePort()
    const driver = await open(`redis://:s3cret@127.0.0.1:${port}`)
    const log = driver.log('')
    const error = await log.get('x').catch((caught: unknown) => caught)
    expect(driver.classifyFailure(error)).toBeDefined()
    expect((error as Error).message).toMatch(/ECONNREFUSED/)
    expect((error as Error).message).toContain(`redis://:***@127.0.0.1:${port}`)
    expect((error as Error).message).not.toContain('s3cret')
    expect(classifyRedisFailure(error)?.reason).toBe('unreachable')

    running.push(await startPrivateRedis(port, ['--requirepass', 's3cret']))
    await vi.waitFor(() => log.get('x'), { timeout: 10_000, interval: 100 })
    expect(await log.put(movie)).toBe(true)
    expect(await driver.log('').get(movie.id)).toEqual(movie)

    await stop(running.pop() as Child, 'SIGKILL')
    const down = await log.get(movie.id).catch((caught: unknown) => caught)
    expect(driver.classifyFailure(down)).toBeDefined()
  })

  it('says a password was refused, without showing it', async () => {
    const redis = await startPrivateRedis(undefined, ['--requirepass', 'right'])
    running.push(redis)
    const driver = await open(`redis://:wrong-s3cret@127.0.0.1:${redis.port}`)
    const error = await driver
      .log('')
      .get('x')
      .catch((caught: unknown) => caught)
    expect(driver.classifyFailure(error)).toBeDefined()
    expect((error as Error).message).toMatch(/WRONGPASS/)
    expect((error as Error).message).not.toContain('wrong-s3cret')
    expect(classifyRedisFailure(error)?.reason).toBe('auth-failed')
  })

  it('says a password changed while it runs was refused, not that Redis is unreachable (issue 61)', async () => {
    const redis = await startPrivateRedis(undefined, ['--requirepass', 'before'])
    running.push(redis)
    const driver = await open(`redis://:before@127.0.0.1:${redis.port}`)
    expect(await driver.log('').put(movie)).toBe(true)
    // The password changed, and the driver's connection dropped (as a restart or a proxy would):
    // it reconnects with the old one.
    const cli = ['-p', String(redis.port), '-a', 'before', '--no-auth-warning']
    await exec('redis-cli', [...cli, 'CONFIG', 'SET', 'requirepass', 'after'])
    await exec('redis-cli', [
      ...cli.slice(0, 2),
      '-a',
      'after',
      '--no-auth-warning',
      'CLIENT',
      'KILL',
      'TYPE',
      'normal',
      'SKIPME',
      'yes',
    ])
    const reasonOf = async () => {
      const error = await driver
        .log('')
        .get(movie.id)
        .then(
          () => undefined,
          (caught: unknown) => caught,
        )
      return error === undefined ? 'answered' : driver.classifyFailure(error)?.reason
    }
    // The first call may meet the closed socket; once a reconnect was refused, every one says so.
    await expect.poll(reasonOf, { timeout: 10_000, interval: 100 }).toBe('auth-failed')
  })

  it('refuses a Redis Cluster node at open, which one client cannot serve every slot from', async () => {
    const redis = await startPrivateClusterNode(folder('movie-log-cluster-'))
    running.push(redis)
    await expect(openRedisDriver(redis.url, options)).rejects.toThrow(
      /is a Redis Cluster node: .*redis\+cluster:\/\//,
    )
  })

  it('waits for a replica after each write with ?wait=1: none there is a store failure', async () => {
    // A replica that attaches syncs at once, not after the default 5 s wait for others.
    const master = await startPrivateRedis(undefined, ['--repl-diskless-sync-delay', '0'])
    running.push(master)
    const driver = await open(`${master.url}/0?wait=1`)
    const log = driver.log('')
    const started = Date.now()
    const error = await log.put(movie).catch((caught: unknown) => caught)
    expect(driver.classifyFailure(error)).toBeDefined()
    expect((error as Error).message).toMatch(/0 of the 1 replica\(s\).*2500 ms \(WAIT\)/)
    expect(Date.now() - started).toBeLessThan(4000)
    // A replica attached and in sync: writes are acknowledged.
    // Its folder of its own: a replica writes the copy it receives to disk.
    const replica = await startPrivateRedis(undefined, [
      '--replicaof',
      '127.0.0.1',
      String(master.port),
      '--dir',
      folder('movie-log-replica-'),
    ])
    running.push(replica)
    await replica.waitForLine(/MASTER <-> REPLICA sync: Finished with success/)
    await vi.waitFor(
      () =>
        log
          .replace(movie, { ...movie, title: 'Replicated' })
          .then((done) => expect(done).toBe(true)),
      {
        timeout: 10_000,
        interval: 100,
      },
    )
    expect((await log.get(movie.id))?.title).toBe('Replicated')
    await driver.drop('')
  }, 30_000)

  it("closes a client it opened, and leaves a caller's open", async () => {
    const redis = await startPrivateRedis()
    running.push(redis)
    const store = new KeyvRedis(redis.url)
    const mine = redisDriverOver(redisClientOf(store) as RedisClient, options)
    expect(await mine.log('bob').put(movie)).toBe(true)
    await mine.close()
    expect((store.client as RedisClient).isReady).toBe(true)
    expect(
      await redisDriverOver(store.client as RedisClient, options)
        .log('bob')
        .get(movie.id),
    ).toEqual(movie)
    await store.disconnect()

    const owned = await open(redis.url)
    await owned.drop('bob')
    await owned.close()
    const closed = await owned
      .log('bob')
      .get(movie.id)
      .catch((caught: unknown) => caught)
    expect(owned.classifyFailure(closed)).toBeDefined()
  })
})

/** A node-redis client that answers INFO with `info` and records what it was asked. */
function fakeClient(info: string, calls: string[]): RedisClient {
  const asked =
    (name: string, answer: unknown = null) =>
    async () => {
      calls.push(name)
      return answer
    }
  return {
    isReady: true,
    isOpen: true,
    connect: asked('connect'),
    close: asked('close'),
    destroy: () => calls.push('destroy'),
    on: () => undefined,
    off: () => undefined,
    get: asked('get'),
    mGet: asked('mGet', []),
    del: asked('del', 0),
    info: asked('info', info),
    eval: asked('eval'),
    evalSha: asked('evalSha'),
  } as unknown as RedisClient
}
