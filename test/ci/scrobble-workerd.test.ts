import { build } from 'esbuild'
import type { Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Delivery, FINISHED, fixture, plexDelivery, requestInit } from '../_scrobble'
import { ownMiniflare } from '../_worker'
import { WRANGLER_BUNDLE } from '../_wrangler'

// The scrobble route on Cloudflare's runtime (workerd, through Miniflare): the web handler
// bundled as wrangler bundles a Worker, each source's delivery logged once, Plex's form read
// with its image left unread, the watch written in the time zone given (workerd's own ICU).
const source = (path: string) => new URL(`../../${path}`, import.meta.url).pathname

async function workerScript(): Promise<string> {
  const contents = `import { createMovieLog } from ${JSON.stringify(source('src/index.ts'))}
import { toWebHandler } from ${JSON.stringify(source('adapters/web.ts'))}
const handler = toWebHandler(createMovieLog(), { timeZone: 'Europe/Paris', maxBodyBytes: 65536 })
export default { fetch: (request) => handler(request) }`
  const result = await build({ stdin: { contents, resolveDir: source('.') }, ...WRANGLER_BUNDLE })
  return result.outputFiles?.[0]?.text as string
}

describe('scrobbles on workerd', () => {
  let worker: Miniflare

  beforeAll(async () => {
    worker = ownMiniflare({
      // One explicit module: Miniflare's own import scan stops at the core's optional import().
      modules: [{ type: 'ESModule', path: 'worker.mjs', contents: await workerScript() }],
      compatibilityDate: '2026-04-26',
      compatibilityFlags: ['nodejs_compat'],
      cf: false,
    })
    await worker.ready
  })
  afterAll(async () => {
    await worker?.dispose()
  })

  const send = (to: string, delivery: Delivery) =>
    worker.dispatchFetch(
      `http://localhost/movies/scrobble/${to}`,
      requestInit(delivery) as Parameters<Miniflare['dispatchFetch']>[1],
    )

  it('logs each source once, in the time zone given', async () => {
    for (const [name, delivery] of Object.entries(FINISHED)) {
      const created = await send(name, delivery())
      expect(created.status, name).toBe(201)
      const movie = (await created.json()) as { id: string; screenedDate: string; notes: string }
      expect(movie.screenedDate.slice(0, 19), name).toBe('2024-06-01T20:30:00')
      const again = await send(name, delivery())
      expect(again.status, name).toBe(200)
      expect(((await again.json()) as { id: string }).id).toBe(movie.id)
    }
    const paused = await send('plex', plexDelivery(fixture('plex-movie-pause')))
    expect(paused.status).toBe(204)
    const list = (await (await worker.dispatchFetch('http://localhost/movies')).json()) as unknown[]
    expect(list).toHaveLength(4)
  })

  it("reads Plex's payload, its thumb dropped within the body limit and left unread past it", async () => {
    const small = plexDelivery(fixture('plex-movie-scrobble-shared-user'), 30 * 1024)
    const logged = await send('plex', small)
    expect(logged.status).toBe(201)
    expect(((await logged.json()) as { title: string }).title).toBe('Heat')
    // 64 MiB: workerd answers, then resets the connection under the client still sending it
    // (undici's fetch reports the reset, not the answer); the movie is logged all the same.
    // A rewatch, a week later (2024-06-08 18:30 UTC), so that its entry is its own.
    const rewatch = fixture('plex-movie-scrobble')
    ;(rewatch.Metadata as Record<string, unknown>).lastViewedAt = 1717871400
    const big = plexDelivery(rewatch, 64 * 1024 * 1024)
    const answer = await send('plex', big).then(
      (response) => response.status,
      (error: Error) => (error.cause as { code?: string } | undefined)?.code,
    )
    expect([201, 'ECONNRESET']).toContain(answer)
    expect(big.pulled?.()).toBeLessThan(16 * 1024 * 1024)
    const list = (await (await worker.dispatchFetch('http://localhost/movies')).json()) as {
      screenedDate: string
    }[]
    expect(list.map((movie) => movie.screenedDate)).toContain('2024-06-08T20:30:00.000')
  })
})
