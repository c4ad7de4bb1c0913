// Issue 27: a log per request leaked a set of listeners on the shared Redis client per log
// (22,000 `connect` and `error` listeners after 20,000 requests). `logs.of(owner)`, taken per
// request, adds none: counts, not time.

import { randomUUID } from 'node:crypto'
import KeyvRedis, { createClient } from '@keyv/redis'
import { createMovieLogs } from 'movie-log'
import { toWebHandler } from 'movie-log/web'
import { describe, expect, it } from 'vitest'
import { describeWith } from './_services'

const REQUESTS = 20_000
const BATCH = 200

type Emitter = { eventNames(): (string | symbol)[]; listenerCount(event: string | symbol): number }
const listeners = (emitter: Emitter) =>
  Object.fromEntries(
    emitter.eventNames().map((event) => [String(event), emitter.listenerCount(event)]),
  )

describeWith('REDIS_URL', 'owners on one Redis client', () => {
  describe('listeners', () => {
    it(`adds none to the client for ${REQUESTS} owners, by of(owner) or through the web handler`, async () => {
      const client = createClient({ url: process.env.REDIS_URL })
      const namespace = `test-listeners-${randomUUID()}`
      const logs = createMovieLogs(new KeyvRedis(client), { namespace })
      try {
        // The first call connects the client and loads the scripts: counted from after it.
        await logs.of('first').listMovies({ limit: 1 })
        const before = listeners(client)
        expect(Object.keys(before).length).toBeGreaterThan(0)
        for (let start = 0; start < REQUESTS; start += BATCH) {
          await Promise.all(
            Array.from({ length: BATCH }, (_, n) =>
              logs.of(`owner ${start + n}`).listMovies({ limit: 1 }),
            ),
          )
        }
        expect(listeners(client)).toEqual(before)

        const handle = toWebHandler(logs, {
          owner: (request) => request.headers.get('x-user') ?? undefined,
        })
        for (let start = 0; start < REQUESTS; start += BATCH) {
          const responses = await Promise.all(
            Array.from({ length: BATCH }, (_, n) =>
              handle(
                new Request('http://movie-log.test/movies?limit=1', {
                  headers: { 'x-user': `user ${start + n}` },
                }),
              ),
            ),
          )
          expect(responses.map((response) => response.status)).toEqual(responses.map(() => 200))
        }
        expect(listeners(client)).toEqual(before)
        // Reading wrote nothing: no owner left a key behind.
        expect(await client.keys(`{${namespace}:*`)).toEqual([])
      } finally {
        await logs.close()
        await client.close()
      }
    }, 120_000)
  })
})
