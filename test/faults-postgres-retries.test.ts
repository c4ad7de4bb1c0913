// Issue 26: a retried add is answered as soon as the store is back. On PostgreSQL, 400 adds sent
// through the project's client with its default retries, each with its own Idempotency-Key,
// while every connection is ended 4 times: before the fix, the claim of an attempt that had
// ended with a 503 in this very process answered its retries 409 for 30 s, and the client gave
// up (375 of 400 got 201 in the run; 12 of the 25 others were stored all the same).
import { performance } from 'node:perf_hooks'
import type { Movie } from 'movie-log'
import { createMovieLogClient } from 'movie-log/client'
import { afterEach, expect, it } from 'vitest'
import { assertAlive } from './_adds'
import { aMovie } from './_movies'
import { createPrivatePostgres } from './_postgres'
import { startServerProcess, stop } from './_processes'
import { describeWith } from './_services'

const ADDS = 400
/** Adds under way at once: clients of one server, each adding one movie after another. */
const CLIENTS = 25
/** Every connection is ended once this many adds have been answered 201, with adds in flight. */
const CUT_AFTER = [40, 120, 200, 280]

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describeWith('POSTGRES_URL', 'retried adds on PostgreSQL while every connection is ended', () => {
  it('gets 400 of 400 adds to 201 with the client’s default retries, each stored once', async () => {
    const postgres = await createPrivatePostgres('retries')
    cleanups.push(() => postgres.drop())
    const server = await startServerProcess({ MOVIE_LOG_STORE: postgres.url })
    cleanups.push(() => stop(server, 'SIGKILL'))

    // Every answer the client got, per Idempotency-Key (0: no answer, the connection failed).
    const answers = new Map<string, number[]>()
    const countingFetch: typeof fetch = async (input, init) => {
      const key = new Headers(init?.headers).get('idempotency-key') ?? ''
      const seen = answers.get(key) ?? []
      answers.set(key, seen)
      try {
        const response = await fetch(input, init)
        seen.push(response.status)
        return response
      } catch (error) {
        seen.push(0)
        throw error
      }
    }
    const client = createMovieLogClient(server.url, { fetch: countingFetch })

    const cuts: Promise<number>[] = []
    let lastCutAt = 0
    let lastCreatedAt = 0
    let created = 0
    const added: Movie[] = []
    const failed: unknown[] = []
    let next = 0
    const addOneAfterAnother = async () => {
      for (let n = next++; n < ADDS; n = next++) {
        const key = `retried-${n}`
        try {
          added.push(await client.addMovie(aMovie({ title: key }), { idempotencyKey: key }))
        } catch (error) {
          failed.push(`${key}: ${error}`)
          continue
        }
        lastCreatedAt = performance.now()
        if (CUT_AFTER.includes(++created)) {
          lastCutAt = performance.now()
          cuts.push(postgres.terminate())
        }
      }
    }
    await Promise.all(Array.from({ length: CLIENTS }, addOneAfterAnother))
    const ended = await Promise.all(cuts)
    assertAlive(server)

    const statuses = [...answers.values()].flat()
    const byStatus: Record<string, number> = {}
    for (const status of statuses) byStatus[status] = (byStatus[status] ?? 0) + 1
    const retries = [...answers.values()].map((seen) => seen.length - 1)
    console.log(
      `retried adds: answers by status ${JSON.stringify(byStatus)}, ${statuses.length - ADDS} retries` +
        ` (${retries.filter((n) => n > 0).length} adds retried, at most ${Math.max(...retries)} times),` +
        ` connections ended ${ended.join(', ')}, last 201 ${Math.round(lastCreatedAt - lastCutAt)} ms` +
        ' after the last cut',
    )

    expect(failed).toEqual([])
    expect(added).toHaveLength(ADDS)
    // Each cut ended connections while adds were in flight, and some of those adds were retried:
    // the run met the fault it is about.
    expect(ended.every((count) => count > 0)).toBe(true)
    expect(retries.some((n) => n > 0)).toBe(true)
    // An attempt that ended never makes its retries wait: no 409, and an add is retried at most
    // once per cut it met.
    expect(byStatus[409]).toBeUndefined()
    expect(Math.max(...retries)).toBeLessThanOrEqual(CUT_AFTER.length)

    // Each add stored exactly once: 400 movies, one per key, with the ids answered.
    const listed = (await (await fetch(server.url)).json()) as Movie[]
    expect(listed).toHaveLength(ADDS)
    expect(new Set(listed.map((movie) => movie.title)).size).toBe(ADDS)
    expect(listed.map((movie) => movie.id).sort()).toEqual(added.map((movie) => movie.id).sort())
  }, 120_000)
})
