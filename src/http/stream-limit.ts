/**
 * The bound on a handler's open streams, exports (NDJSON, CSV), live feeds and the full JSON list
 * together: each holds a connection, a store reader and buffers for as long as its client keeps
 * it open, so a client that opens them by the hundred must not take the server's memory with it.
 * With many owners, one owner holds at most half of them (rounded up), so that one person's
 * feeds never lock the rest of a household out.
 */
import { problemReply } from './problem'
import type { Reply } from './reply'

/**
 * Opens a stream of `owner` (none for a handler of one log) if the bounds leave room: else a
 * 503 with `Retry-After`.
 */
export type StreamLimit = <T extends Reply | undefined>(
  owner: string | undefined,
  open: () => Promise<T>,
) => Promise<T | Reply>

/**
 * A bound of `max` streams open at once, and of half of them (rounded up) per owner. A stream
 * counts from the moment it is asked for until its body ends, fails or is cancelled (the client
 * went away): a reply without a stream body (an error, a HEAD) releases its place at once.
 */
export function createStreamLimit(max: number): StreamLimit {
  const perOwner = Math.ceil(max / 2)
  const owners = new Map<string, number>()
  let open = 0
  return async (owner, start) => {
    const held = owner === undefined ? 0 : (owners.get(owner) ?? 0)
    if (open >= max || held >= perOwner) {
      const whose = open >= max ? '' : ' for this diary'
      return problemReply(503, `Too many streams are open${whose}; try again shortly.`, {
        'retry-after': '5',
      })
    }
    open++
    if (owner !== undefined) owners.set(owner, held + 1)
    let released = false
    const release = () => {
      if (released) return
      released = true
      open--
      if (owner === undefined) return
      const left = (owners.get(owner) ?? 1) - 1
      if (left === 0) owners.delete(owner)
      else owners.set(owner, left)
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
