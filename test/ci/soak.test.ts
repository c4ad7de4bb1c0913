import { readFileSync } from 'node:fs'
import { setTimeout as pace } from 'node:timers/promises'
import type { Movie } from 'movie-log'
import { afterAll, expect, it } from 'vitest'
import { aMovie } from '../_movies'
import { type Child, startPrivateRedis, startServerProcess, stop } from '../_processes'
import { describeWith } from '../_services'

// Two minutes, so only under CI=true; SOAK_SECONDS shortens it for a quick look there.
const SECONDS = Number(process.env.SOAK_SECONDS ?? 120)
const REQUESTS_PER_SECOND = 40

const running: Child[] = []
afterAll(async () => {
  await Promise.all(running.map((child) => stop(child, 'SIGKILL')))
})

const rssMiB = (pid: number | undefined) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024

describeWith('CI', 'soak', () => {
  it(
    `soaks two servers on one Redis for ${SECONDS} s: every 201 kept once, memory flat`,
    async () => {
      const redis = await startPrivateRedis()
      running.push(redis)
      const servers = [
        await startServerProcess({ MOVIE_LOG_STORE: redis.url }),
        await startServerProcess({ MOVIE_LOG_STORE: redis.url }),
      ]
      running.push(...servers)

      const created: string[] = []
      const failures: string[] = []
      const inFlight: Promise<void>[] = []
      const request = async (n: number) => {
        const server = servers[n % 2]!
        const kind = n % 4
        const response =
          kind < 2
            ? await fetch(server.url, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify(aMovie({ title: `Soak ${n}` })),
              })
            : await fetch(
                kind === 2 || created.length === 0
                  ? `${server.url}?limit=50`
                  : `${server.url}/${created.at(-1)}`,
              )
        const body = await response.text()
        if (response.status === 201) created.push((JSON.parse(body) as Movie).id)
        else if (response.status !== 200) failures.push(`${response.status} ${body}`)
      }

      const total = SECONDS * REQUESTS_PER_SECOND
      let warm: number[] = []
      const started = Date.now()
      for (let n = 0; n < total; n++) {
        inFlight.push(request(n))
        // A steady rate: the next request leaves on schedule, whether or not this one is back.
        // The schedule is absolute: timers fire late on a loaded machine, and sleeping a fixed
        // step each time added that lateness up (two minutes became three and timed out).
        await pace(Math.max(0, started + ((n + 1) * 1000) / REQUESTS_PER_SECOND - Date.now()))
        if (n === Math.floor(total / 4)) warm = servers.map((server) => rssMiB(server.process.pid))
      }
      await Promise.all(inFlight)
      const end = servers.map((server) => rssMiB(server.process.pid))

      expect(failures).toEqual([])
      const listed = ((await (await fetch(servers[0]!.url)).json()) as Movie[]).map(
        (movie) => movie.id,
      )
      expect(listed).toHaveLength(created.length)
      expect(new Set(listed)).toEqual(new Set(created))
      expect(((await (await fetch(servers[1]!.url)).json()) as Movie[]).map((m) => m.id)).toEqual(
        listed,
      )
      // Flat: from the first quarter (warmed up) to the end, each server grows by less than 25 MiB.
      for (const [index, before] of warm.entries()) expect(end[index]! - before).toBeLessThan(25)
      console.log(
        `soak: ${total} requests in ${SECONDS} s, ${created.length} movies, RSS ${warm.map((m) => m.toFixed(0)).join('/')} -> ${end.map((m) => m.toFixed(0)).join('/')} MiB`,
      )
    },
    (SECONDS + 60) * 1000,
  )
})
