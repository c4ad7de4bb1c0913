import type { Movie } from 'movie-log'
import { expect, it } from 'vitest'
import { aMovie } from './_movies'
import { freePort } from './_ports'
import { startPrivateRedis, stop } from './_processes'
import { childrenOfEachTest, list, post } from './_server-client'
import { describeWith } from './_services'

// The example server on Redis servers of its own, which these tests stop, kill and restart.
const { running, start } = childrenOfEachTest()

describeWith('redis-server', 'example server on a private Redis', () => {
  it('logs one line per request, and a start line without the store password', async () => {
    const redis = await startPrivateRedis(undefined, ['--requirepass', 's3cret'])
    running.push(redis)
    const storeUrl = `redis://:s3cret@127.0.0.1:${redis.port}`
    const server = await start({ MOVIE_LOG_STORE: storeUrl })
    await fetch(server.url)
    await server.waitForLine(/^GET \/movies 200 \d+(\.\d+)?ms$/)
    expect(server.lines.join('\n')).not.toContain('s3cret')
    expect(server.lines[0]).toContain(`redis://:***@127.0.0.1:${redis.port}`)
  })

  it('lets two servers on one Redis see all of 300 concurrent POSTs, in the same order', async () => {
    const redis = await startPrivateRedis()
    running.push(redis)
    const [first, second] = [
      await start({ MOVIE_LOG_STORE: redis.url }),
      await start({ MOVIE_LOG_STORE: redis.url }),
    ]
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, n) =>
        post((n % 2 ? first : second).url, aMovie({ title: `P${n}` })),
      ),
    )
    expect(responses.every((r) => r.status === 201)).toBe(true)
    const [seenByFirst, seenBySecond] = [await list(first.url), await list(second.url)]
    expect(seenByFirst).toHaveLength(300)
    expect(seenBySecond).toEqual(seenByFirst)
  })

  it('makes 50 concurrent retries of one Idempotency-Key over two servers on one Redis one movie', async () => {
    const redis = await startPrivateRedis()
    running.push(redis)
    const servers = [
      await start({ MOVIE_LOG_STORE: redis.url }),
      await start({ MOVIE_LOG_STORE: redis.url }),
    ]
    const body = JSON.stringify(aMovie({ title: 'Retried' }))
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        fetch(servers[n % 2]!.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': '"retry-me"' },
          body,
        }),
      ),
    )
    const created = responses.filter((r) => r.status === 201)
    expect(created.length).toBeGreaterThan(0)
    expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true)
    const ids = new Set(await Promise.all(created.map(async (r) => ((await r.json()) as Movie).id)))
    expect(ids.size).toBe(1)
    expect(await list(servers[0]!.url)).toHaveLength(1)
    expect(await list(servers[1]!.url)).toHaveLength(1)
  })

  it('answers 503 while Redis is down, stays up, and serves again when Redis returns', async () => {
    const port = await freePort()
    let redis = await startPrivateRedis(port)
    running.push(redis)
    const server = await start({ MOVIE_LOG_STORE: redis.url })
    expect((await post(server.url)).status).toBe(201)

    await stop(redis, 'SIGKILL')
    // Redis stays down until restarted below: an answer at all is an answer without it.
    const during = await post(server.url)
    expect(during.status).toBe(503)
    expect(during.headers.get('content-type')).toBe('application/problem+json')
    expect((await fetch(server.url)).status).toBe(503)
    expect(server.process.exitCode).toBeNull()

    redis = await startPrivateRedis(port)
    running.push(redis)
    await expect.poll(async () => (await post(server.url)).status, { interval: 200 }).toBe(201)
  }, 90_000)
})
