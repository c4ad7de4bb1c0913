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

// Each server runs with test/_heap.mjs: on SIGUSR2 it collects garbage and prints what is held.
const HEAP_PROBE = { NODE_OPTIONS: '--import ./test/_heap.mjs' }
const measured = new Map<Child, number>()
/** Bytes a server holds after a full GC (its n-th measurement). */
async function heldBytes(server: Child): Promise<number> {
  const n = (measured.get(server) ?? 0) + 1
  measured.set(server, n)
  server.process.kill('SIGUSR2')
  return Number((await server.waitForLine(new RegExp(`^heap ${n}: \\d+`))).split(': ')[1])
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

describeWith('CI', 'soak', () => {
  it(
    `soaks two servers on one Redis for ${SECONDS} s: every 201 kept once, memory flat`,
    async () => {
      const redis = await startPrivateRedis()
      running.push(redis)
      const servers = [
        await startServerProcess({ MOVIE_LOG_STORE: redis.url, ...HEAP_PROBE }),
        await startServerProcess({ MOVIE_LOG_STORE: redis.url, ...HEAP_PROBE }),
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
      let warmHeld: Promise<number[]> | undefined
      let warmAt = 0
      const started = Date.now()
      for (let n = 0; n < total; n++) {
        inFlight.push(request(n))
        // A steady rate: the next request leaves on schedule, whether or not this one is back.
        // The schedule is absolute: timers fire late on a loaded machine, and sleeping a fixed
        // step each time added that lateness up (two minutes became three and timed out).
        await pace(Math.max(0, started + ((n + 1) * 1000) / REQUESTS_PER_SECOND - Date.now()))
        if (n === Math.floor(total / 4)) {
          warm = servers.map((server) => rssMiB(server.process.pid))
          warmHeld = Promise.all(servers.map(heldBytes))
          warmAt = n + 1
        }
      }
      await Promise.all(inFlight)
      const end = servers.map((server) => rssMiB(server.process.pid))
      const before = (await warmHeld) as number[]
      const after = await Promise.all(servers.map(heldBytes))

      expect(failures).toEqual([])
      const listed = ((await (await fetch(servers[0]!.url)).json()) as Movie[]).map(
        (movie) => movie.id,
      )
      expect(listed).toHaveLength(created.length)
      expect(new Set(listed)).toEqual(new Set(created))
      expect(((await (await fetch(servers[1]!.url)).json()) as Movie[]).map((m) => m.id)).toEqual(
        listed,
      )
      // Flat: from the first quarter (warmed up) to the end, what each server holds after a full
      // GC grows by less than 2 KB per request it served then: a leak of 6 KB per request
      // fails (it passed the 25 MiB bound on RSS this replaces). Seen without a leak: 100 to
      // 800 bytes per request in a 20 s run (caches filling up), less over two minutes.
      const perServer = (total - warmAt) / servers.length
      const growth = after.map((held, index) => (held - before[index]!) / perServer)
      console.log(
        `soak: ${total} requests in ${SECONDS} s, ${created.length} movies, held after GC ${before.map(mib).join('/')} -> ${after.map(mib).join('/')} MiB (${growth.map((bytes) => bytes.toFixed(0)).join('/')} bytes per request), RSS ${warm.map((m) => m.toFixed(0)).join('/')} -> ${end.map((m) => m.toFixed(0)).join('/')} MiB`,
      )
      for (const bytes of growth) expect(bytes).toBeLessThan(2048)
    },
    (SECONDS + 60) * 1000,
  )
})
