// Issue 29: the PostgreSQL driver's change history, its LISTEN client waking other processes'
// watchers, and waking them again once that client is cut and comes back.
import { randomUUID } from 'node:crypto'
import { afterEach, expect, it } from 'vitest'
import type { Movie } from '../src/core/movie'
import { openPostgresDriver } from '../src/drivers/postgres'
import { describeChangeSuite, wakes } from './_change-conformance'
import { aMovie } from './_movies'
import { createPrivatePostgres } from './_postgres'
import { describeWith } from './_services'

const url = process.env.POSTGRES_URL as string
const open = (storeUrl: string, namespace: string) =>
  openPostgresDriver(storeUrl, { namespace, connectTimeoutMs: 1000 })

if (url)
  describeChangeSuite('PostgreSQL', (namespace) => open(url, namespace), {
    bound: 1000,
    keptAtMost: 1000,
    url,
  })

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describeWith('POSTGRES_URL', 'PostgreSQL change wakes', () => {
  it('wakes watchers again once its LISTEN client was ended and is back, and hears changes then', async () => {
    const database = await createPrivatePostgres('listen')
    cleanups.push(() => database.drop())
    const namespace = `test-${randomUUID()}`
    const [driver, writer] = [
      await open(database.url, namespace),
      await open(database.url, namespace),
    ]
    cleanups.push(
      () => driver.close(),
      () => writer.close(),
    )
    const { wake, next } = wakes()
    driver.onChange('alice', wake)
    await next(5000, 'the LISTEN client ready')
    expect(await database.terminate()).toBeGreaterThan(0)
    // Back, it wakes everyone: what was written meanwhile is read from the history.
    await next(5000, 'the LISTEN client back')
    const added = { ...aMovie(), notes: '', id: randomUUID() } as Movie
    // The writer's pool lost its connections too: a write may fail once.
    let written = false
    for (let attempt = 0; attempt < 5 && !written; attempt++)
      written = await writer
        .log('alice')
        .put(added)
        .catch(() => false)
    expect(written).toBe(true)
    await next(1000, 'a put after the LISTEN client came back')
    expect(await driver.log('alice').latestChange()).toEqual(expect.any(String))
  })
})
