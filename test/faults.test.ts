import type { Movie } from 'movie-log'
import { afterEach, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { freePort } from './_ports'
import { type Child, startPrivateRedis, startServerProcess, stop } from './_processes'
import { describeWith } from './_services'
import { tempFolders } from './_temp'

const tempFolder = tempFolders()

const running: Child[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((child) => stop(child, 'SIGKILL')))
})

// Also pins a crash: 300 concurrent POSTs pass the cap of 256 adds, and the handler used to
// cancel the refused bodies, which destroyed the requests; listhen's shutdown hook then threw on
// the missing socket and took the example server down.
describeWith('redis-server', 'a private Redis killed under load', () => {
  it('keeps every 201 through a Redis killed under load and restarted from its AOF file', async () => {
    const port = await freePort()
    // appendfsync always: Redis writes each command to its AOF before answering it.
    const durable = [
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--dir',
      tempFolder('movie-log-aof-'),
    ]
    let redis = await startPrivateRedis(port, durable)
    running.push(redis)
    const server = await startServerProcess({ MOVIE_LOG_STORE: redis.url })
    running.push(server)

    let acknowledged = 0
    let killed: Promise<unknown> | undefined
    const post = async (n: number) => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(aMovie({ title: `Under load ${n}` })),
      })
      const movie = response.status === 201 ? ((await response.json()) as Movie) : undefined
      if (movie && ++acknowledged === 100) killed = stop(redis, 'SIGKILL')
      return { status: response.status, movie }
    }
    const results = await Promise.all(Array.from({ length: 300 }, (_, n) => post(n)))
    await killed

    expect(results.every(({ status }) => status === 201 || status === 503)).toBe(true)
    expect(acknowledged).toBeGreaterThanOrEqual(100)
    // Redis stays down until restarted below: an answer at all is an answer without it.
    expect((await post(300)).status).toBe(503)

    redis = await startPrivateRedis(port, durable)
    running.push(redis)
    await expect.poll(async () => (await fetch(server.url)).status, { interval: 200 }).toBe(200)
    const listed = ((await (await fetch(server.url)).json()) as Movie[]).map((movie) => movie.id)
    expect(new Set(listed).size).toBe(listed.length)
    const lost = results.flatMap(({ movie }) =>
      movie && !listed.includes(movie.id) ? [movie.id] : [],
    )
    expect(lost).toEqual([])
  }, 180_000)
})
