// Issue 29's bound, CI's (a load of seconds): one server process holds 1,000 open feeds and
// each gets an add.
import { describe, expect, it } from 'vitest'
import { aMovie } from '../_movies'
import { childrenOfEachTest, post } from '../_server-client'

const { start } = childrenOfEachTest()

describe('one server process with 1,000 open feeds', () => {
  it('holds them all open and delivers an add to every one', async () => {
    // Past the default bound of 256 streams: this server is set for 1,000 feeds.
    const server = await start({ MOVIE_LOG_STORE: 'memory://', MOVIE_LOG_MAX_STREAMS: '1000' })
    expect((await post(server.url, aMovie({ title: 'Earlier' }))).status).toBe(201)
    const stopped = new AbortController()
    const texts: string[] = []
    try {
      const readers = await Promise.all(
        Array.from({ length: 1000 }, async (_, n) => {
          const response = await fetch(server.url, {
            headers: { accept: 'text/event-stream' },
            signal: stopped.signal,
          })
          expect(response.status).toBe(200)
          texts[n] = ''
          const decoder = new TextDecoder()
          const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array>
          // Each feed's first bytes (its `retry:`) are in before the add, so every one is open.
          texts[n] += decoder.decode((await reader.read()).value)
          void (async () => {
            for (let read = await reader.read(); !read.done; read = await reader.read()) {
              texts[n] += decoder.decode(read.value)
            }
          })().catch(() => {})
          return reader
        }),
      )
      expect(readers).toHaveLength(1000)
      const added = await post(server.url, aMovie({ title: 'To all' }))
      expect(added.status).toBe(201)
      // A bound for a hang, not a speed: 1,000 events take milliseconds (see bench/NOTES.md).
      await expect
        .poll(() => texts.filter((text) => text.includes('"title":"To all"')).length, {
          timeout: 30_000,
          interval: 50,
        })
        .toBe(1000)
    } finally {
      stopped.abort()
    }
    // A hang guard: opening 1,000 feeds on a loaded 2-core machine took 24 s once.
  }, 120_000)
})
