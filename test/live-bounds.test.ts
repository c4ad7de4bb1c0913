// Issue 29's bounds: one server process holds 1,000 open feeds and each gets an add; a reader
// that stops reading, over a real socket, is cut off past the feed's buffer.
import { once } from 'node:events'
import { createServer, get, type IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { createMovieLog } from 'movie-log'
import { toNodeHandler } from 'movie-log/node'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { childrenOfEachTest, post } from './_server-client'
import { closeServer, listenOnFreePort } from './_through-client'

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

describe('a feed whose reader stops reading, over a real socket', () => {
  const closing: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const close of closing.splice(0)) await close()
  })

  it('is cut off past its buffer (plus the socket’s), not held in memory', async () => {
    const log = createMovieLog()
    const maxFeedBufferBytes = 64 * 1024
    const server = createServer(toNodeHandler(log, { maxFeedBufferBytes }))
    const sockets = new Set<Socket>()
    server.on('connection', (socket) => sockets.add(socket))
    const url = await listenOnFreePort(server)
    closing.push(() => closeServer(server))
    await log.addMovie(aMovie({ title: 'Earlier' }))

    const request = get(`${url}/movies`, { headers: { accept: 'text/event-stream' } })
    closing.push(async () => request.destroy())
    const [response] = (await once(request, 'response')) as [IncomingMessage]
    expect(response.statusCode).toBe(200)
    // The reader stops reading: nothing is taken off the socket from here on.
    response.pause()
    const [feedSocket] = [...sockets]
    let isCut = false
    // 'close', not once(): the server destroys the socket with the feed's error.
    feedSocket?.on('error', () => {})
    feedSocket?.on('close', () => {
      isCut = true
    })

    // Adds of about 2 kB each until the server lets go of the feed. Kernel socket buffers on
    // loopback hold a few MB at most: past 64 MB the feed was held, and the test fails.
    const notes = 'n'.repeat(2000)
    let bytes = 0
    while (!isCut && bytes < 64 * 1024 * 1024) {
      for (let n = 0; n < 50; n++) {
        const movie = await log.addMovie(aMovie({ notes }))
        bytes += JSON.stringify(movie).length
      }
      await new Promise(setImmediate)
    }
    expect(isCut).toBe(true)
    expect(bytes).toBeGreaterThan(maxFeedBufferBytes)
  })
})
