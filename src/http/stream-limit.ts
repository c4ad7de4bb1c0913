/**
 * The bound on a handler's open streams, exports (NDJSON, CSV) and live feeds together: each
 * holds a connection, a store reader and buffers for as long as its client keeps it open, so a
 * client that opens them by the hundred must not take the server's memory with it.
 */
import { problemReply } from './problem'
import type { Reply } from './reply'

/** Opens a stream if fewer than the bound are open: else a 503 with `Retry-After`. */
export type StreamLimit = <T extends Reply | undefined>(
  open: () => Promise<T>,
) => Promise<T | Reply>

/**
 * A bound of `max` streams open at once. A stream counts from the moment it is asked for until
 * its body ends, fails or is cancelled (the client went away): a reply without a stream body
 * (an error, a HEAD) releases its place at once.
 */
export function createStreamLimit(max: number): StreamLimit {
  let open = 0
  return async (start) => {
    if (open >= max) {
      return problemReply(503, 'Too many exports and live feeds are open; try again shortly.', {
        'retry-after': '5',
      })
    }
    open++
    let released = false
    const release = () => {
      if (released) return
      released = true
      open--
    }
    let reply: Awaited<ReturnType<typeof start>>
    try {
      reply = (await start()) as typeof reply
    } catch (error) {
      release()
      throw error
    }
    if (reply?.body instanceof ReadableStream) reply.body = counted(reply.body, release)
    else release()
    return reply
  }
}

// The body, read only as its reader reads (no chunk of its own held ahead), and `release`
// called once when it ends, fails or is cancelled. A body that fails while its client reads
// nothing (a live feed cut past its buffer) fails this stream at once, not at the next read:
// else the stalled client would keep the connection and its place.
function counted(
  body: ReadableStream<Uint8Array>,
  release: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        reader.closed.then(release, (error: unknown) => {
          release()
          controller.error(error)
        })
      },
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>
        try {
          next = await reader.read()
        } catch (error) {
          release()
          controller.error(error)
          return
        }
        if (!next.done) return controller.enqueue(next.value)
        release()
        controller.close()
      },
      cancel(reason) {
        release()
        return reader.cancel(reason)
      },
    },
    { highWaterMark: 0 },
  )
}
