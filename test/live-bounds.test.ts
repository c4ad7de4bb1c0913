// Issue 29's bounds: a reader that stops reading, over a real socket, is cut off past the
// feed's buffer.
import { once } from 'node:events'
import { createServer, get, type IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { createMovieLog } from 'movie-log'
import { toNodeHandler } from 'movie-log/node'
import { afterEach, describe, expect, it } from 'vitest'
import { aMovie } from './_movies'
import { closeServer, listenOnFreePort } from './_through-client'

// One server process holding 1,000 open feeds: test/ci/live-feeds-1000.test.ts.

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

    // Adds of about 2 kB, one at a time, until the server lets go of the feed. First the
    // socket fills (kernel buffers on loopback hold a few MB at most: past 64 MB the feed was
    // held, and the test fails); from the first add the socket no longer takes (its
    // bytesWritten stays put), each event waits in the feed's buffer, and the feed must stay
    // open until they are past maxFeedBufferBytes, then be cut at once.
    const notes = 'n'.repeat(2000)
    // A turn of the event loop after each add: the feed's write reaches the socket, and the
    // socket's progress (or its close) is seen.
    const settle = () => new Promise((resolve) => setImmediate(resolve))
    let bytes = 0
    let taken = feedSocket?.bytesWritten ?? 0
    const buffered: number[] = []
    while (!isCut && bytes < 64 * 1024 * 1024) {
      const movie = await log.addMovie(aMovie({ notes }))
      const eventBytes = `event: added\nid: 0000000000\ndata: ${JSON.stringify(movie)}\n\n`.length
      bytes += eventBytes
      await settle()
      const written = feedSocket?.bytesWritten ?? 0
      if (isCut) buffered.push(eventBytes)
      else if (written === taken) buffered.push(eventBytes)
      else buffered.length = 0 // the socket took more: what waited was not the buffer yet
      taken = written
    }
    expect(isCut).toBe(true)
    const total = (events: number[]) => events.reduce((sum, size) => sum + size, 0)
    // Open while the buffer held up to the bound (the events before the last one), cut by
    // the event that took it past: a feed cut earlier, or held longer, fails here.
    expect(total(buffered.slice(0, -1))).toBeLessThanOrEqual(maxFeedBufferBytes + 512)
    expect(total(buffered)).toBeGreaterThan(maxFeedBufferBytes - 512)
  })
})
