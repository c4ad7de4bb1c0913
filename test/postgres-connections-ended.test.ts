// Issue 55: PostgreSQL ending the pool's idle connections (a restart, a failover, a reaper). The
// pool hears each end, and a read that meets a connection already ended is tried again on
// another: no call fails. A test that allowed eleven failed calls out of twelve let that pass
// unseen. Each connection ended is said once, as a process warning, not silently dropped.
import { randomUUID } from 'node:crypto'
import { afterEach, expect, it, vi } from 'vitest'
import type { Movie } from '../src/core/movie'
import { openPostgresDriver } from '../src/drivers/postgres/driver'
import { aMovie } from './_movies'
import { createPrivatePostgres } from './_postgres'
import { describeWith } from './_services'

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  vi.restoreAllMocks()
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const movie = (): Movie => ({ ...aMovie(), notes: '', id: randomUUID() }) as Movie

describeWith('POSTGRES_URL', 'the PostgreSQL driver, when PostgreSQL ends its connections', () => {
  it('answers every read after its idle connections are ended, and warns of them', async () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {})
    const database = await createPrivatePostgres('ended')
    cleanups.push(() => database.drop())
    const driver = await openPostgresDriver(database.url, {
      namespace: 'ended',
      connectTimeoutMs: 1000,
    })
    cleanups.push(() => driver.close())
    const log = driver.log('')
    for (let round = 1; round <= 5; round++) {
      // Four at once: the pool holds four idle connections after them.
      await Promise.all(Array.from({ length: 4 }, () => log.put(movie())))
      expect(await database.terminate()).toBeGreaterThanOrEqual(4)
      // At once, before the pool may have heard of any end, and again: none fails.
      for (let read = 0; read < 3; read++) {
        expect(await log.listAfter(undefined, Number.POSITIVE_INFINITY)).toHaveLength(4 * round)
      }
    }
    const said = () =>
      warnings.mock.calls.filter(([, options]) => {
        const code = typeof options === 'object' ? options?.code : undefined
        return code === 'MOVIE_LOG_POSTGRES_CONNECTION_ENDED'
      })
    await expect.poll(() => said().length).toBeGreaterThan(0)
    expect(String(said()[0]?.[0])).toMatch(/PostgreSQL ended a connection of the pool/)
  })
})
