/** The change feed over fetch: Server-Sent Events read with eventsource-parser, resumed by id. */
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { FeedUnavailableError, InvalidPageRequestError } from '../core/errors'
import { type LogChange, setWatchStart, type WatchOptions } from '../core/watch'
import { errorFrom } from './errors'

/** Where the feed is and how to reach it: the client's own fetch, headers and timeout. */
export interface FeedConnection {
  url: string
  fetch: typeof fetch
  headers: HeadersInit | undefined
  /** How long the answer may take to begin (the stream itself lasts), in ms. */
  timeoutMs: number
}

// Until the server says (`retry:`); then doubled per failure in a row, with jitter, up to a cap.
const FIRST_RETRY_MS = 2000
const MAX_RETRY_MS = 30_000
// Answers that say "later": a store briefly out, a proxy between deployments.
const RETRIED_STATUSES = [408, 409, 425, 429, 500, 502, 503, 504]

/**
 * The log's changes from the server's feed: reconnects when the stream breaks or ends (after
 * the server's `retry:` hint, backing off while it fails) and resumes after the last id it
 * read, so no change is lost or repeated. The feed's first event (`ready`) says where it
 * starts, so a stream lost before its first change resumes from there; only a feed that named
 * no start (a log that had kept no change) starts its next connection with a `reset`.
 */
export function watchFeed(
  connection: FeedConnection,
  options: WatchOptions = {},
): AsyncIterable<LogChange> {
  const { after, signal } = options
  return { [Symbol.asyncIterator]: () => openFeed(connection, after || undefined, signal) }
}

function openFeed(
  connection: FeedConnection,
  after: string | undefined,
  signal: AbortSignal | undefined,
): AsyncIterator<LogChange> {
  const ended = new AbortController()
  const end = () => ended.abort()
  // Where the watch starts, for watchStartOf: known at the first connection's first event.
  let started: (start: string | undefined) => void = () => {}
  const start = new Promise<string | undefined>((resolve) => {
    started = resolve
  })

  async function* run(): AsyncGenerator<LogChange, undefined> {
    if (signal?.aborted) return
    signal?.addEventListener('abort', end)
    let position = after
    let retryMs = FIRST_RETRY_MS
    let failures = 0
    let connected = false
    try {
      while (!ended.signal.aborted) {
        // One request per connection, aborted when the watch ends or the connection is done.
        const request = new AbortController()
        const abort = () => request.abort()
        ended.signal.addEventListener('abort', abort)
        try {
          const response = await connect(connection, position, request)
          if (response?.status === 200) {
            const type = response.headers.get('content-type') ?? ''
            if (!/^text\/event-stream\b/i.test(type)) {
              await response.body?.cancel()
              throw new FeedUnavailableError(
                `${connection.url} offers no live changes (it answered ${type || 'no type'})`,
              )
            }
            // Changes made while no stream was open, from no known point: read the list again.
            if (connected && position === undefined) yield { type: 'reset', id: '' }
            connected = true
            failures = 0
            const read = readFeed(response, position ?? '', (ms) => {
              retryMs = ms
            })
            for await (const event of read) {
              if (event.type === 'ready') {
                position = event.id || position
                started(position)
                continue
              }
              started(position) // a server that sends no `ready`: where the watch stood
              position = event.id || undefined
              yield event
            }
          } else if (response && !RETRIED_STATUSES.includes(response.status)) {
            const error = await errorFrom(response, 'watch')
            // A resume the server no longer knows (a memory store restarted, a store restored
            // from a backup: an id later than its history): start over from its present, which
            // the next connection announces with a `reset`. The caller's own `after` still fails.
            if (!(connected && position !== undefined && error instanceof InvalidPageRequestError))
              throw error
            position = undefined
          } else {
            await response?.body?.cancel()
            failures++
          }
        } finally {
          ended.signal.removeEventListener('abort', abort)
          request.abort()
        }
        await pause(backoffMs(retryMs, failures), ended.signal)
      }
    } finally {
      started(position)
      signal?.removeEventListener('abort', end)
      end()
    }
  }

  const changes = run()
  // The first read, begun by watchStartOf before any `next`: the first `next` answers it.
  let first: Promise<IteratorResult<LogChange>> | undefined
  const iterator: AsyncIterator<LogChange> & AsyncIterable<LogChange> = {
    next: () => {
      const read = first ?? changes.next()
      first = undefined
      return read
    },
    // Ends at once a watch waiting for a change: its request is aborted, its `next` done.
    return: async () => {
      end()
      return changes.return(undefined)
    },
    [Symbol.asyncIterator]: () => iterator,
  }
  setWatchStart(iterator, () => {
    first ??= changes.next()
    // What ends the watch before it knows its start (a refusal) rejects the first read: this too.
    return Promise.race([start, first.then(() => start)])
  })
  return iterator
}

/** One request for the feed, resuming after `position`; `undefined` when it could not be sent. */
async function connect(
  connection: FeedConnection,
  position: string | undefined,
  request: AbortController,
): Promise<Response | undefined> {
  const headers = new Headers(connection.headers)
  headers.set('accept', 'text/event-stream')
  if (position !== undefined) headers.set('last-event-id', position)
  // Only the wait for the answer is bounded: the stream then lasts until it ends.
  const timer = setTimeout(() => request.abort(), connection.timeoutMs)
  try {
    return await connection.fetch(connection.url, { headers, signal: request.signal })
  } catch {
    return undefined
  } finally {
    clearTimeout(timer)
  }
}

/** The feed's first event: where it starts (`id`, `''` when it named none). */
type FeedEvent = LogChange | { type: 'ready'; id: string }

/** The events of one response, until its stream ends or breaks. */
async function* readFeed(
  response: Response,
  position: string,
  onRetry: (ms: number) => void,
): AsyncGenerator<FeedEvent> {
  const read: FeedEvent[] = []
  let lastId = position
  const parser = createParser({
    onEvent: (event) => {
      lastId = event.id ?? lastId
      const change = changeOf(event, lastId)
      if (change) read.push(change)
    },
    onRetry,
  })
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  try {
    for (;;) {
      const chunk = await reader.read().catch(() => undefined)
      if (!chunk || chunk.done) return
      parser.feed(decoder.decode(chunk.value, { stream: true }))
      while (read.length > 0) yield read.shift() as FeedEvent
    }
  } finally {
    void reader.cancel().catch(() => {})
  }
}

function changeOf(event: EventSourceMessage, id: string): FeedEvent | undefined {
  switch (event.event) {
    case 'ready':
      return { id: event.id ?? '', type: 'ready' }
    case 'added':
    case 'updated':
      return { id, type: event.event, movie: JSON.parse(event.data) }
    case 'deleted':
      return { id, type: 'deleted', movie: { id: JSON.parse(event.data).id } }
    case 'reset':
      return { id, type: 'reset' }
    default:
      return undefined
  }
}

// Full jitter over the doubled wait: clients cut off together do not come back together.
function backoffMs(retryMs: number, failures: number): number {
  const wait = Math.min(retryMs * 2 ** failures, MAX_RETRY_MS)
  return wait / 2 + (Math.random() * wait) / 2
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done)
  })
}
