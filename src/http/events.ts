/**
 * `GET /movies` as Server-Sent Events (CONTRACT's "Live changes"): the log's changes as they
 * happen, resumable from `Last-Event-ID`.
 */
import { InvalidPageRequestError } from '../core/errors'
import type { MovieLog } from '../core/movie-log'
import { CHANGE_ID, type LogChange, watchStartOf } from '../core/watch'
import { movieJson } from './movie-json'
import type { Reply } from './reply'

export const EVENT_STREAM_TYPE = 'text/event-stream'

/** What every feed of one handler shares. */
export interface FeedSettings {
  /** How often an idle feed sends a comment, so proxies and clients know it is alive, in ms. */
  keepAliveMs: number
  /** Bytes a feed may hold for a reader who stopped reading; past them it is cut off. */
  maxBufferedBytes: number
  /** Ends every feed (a server shutting down): each stream ends cleanly. */
  signal?: AbortSignal
  /** Hears of a feed that broke off (its store failed, or a bug), as the handler's `onError`. */
  onError(error: unknown, request: Request): void
}

// The `retry:` hint: how long an EventSource waits before it reconnects, in ms.
const RETRY_MS = 2000

/**
 * The feed of `log`'s changes for `request`: the changes after its `Last-Event-ID` header (what
 * an EventSource sends when it reconnects) or its `lastEventId` query parameter (a first
 * connection), or from now. The start is read before answering: a store that is down is a 503.
 */
export async function changeFeed(
  log: MovieLog,
  request: Request,
  url: URL,
  settings: FeedSettings,
): Promise<Reply> {
  const { after, path } = resumeAfter(request, url)
  const ended = new AbortController()
  const end = () => ended.abort()
  const changes = log.watch({ after, signal: ended.signal })[Symbol.asyncIterator]()
  const start = await watchStartOf(changes)?.catch((error: unknown) => {
    // An id later than any the log made: refused by the name the client gave it.
    if (!InvalidPageRequestError.is(error)) throw error
    throw new InvalidPageRequestError([{ path, message: NOT_OURS }])
  })

  let timer: ReturnType<typeof setInterval> | undefined
  const stop = () => {
    clearInterval(timer)
    settings.signal?.removeEventListener('abort', end)
    request.signal?.removeEventListener('abort', end)
    end()
    void changes.return?.()
  }
  let open = true
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const finish = (error?: unknown) => {
          if (!open) return
          open = false
          stop()
          if (error === undefined) controller.close()
          else controller.error(error)
        }
        // Past the bound, the reader is too far behind to be worth holding: it is cut off, and
        // reconnects from its last id (or is told to reset, if that is gone by then).
        const send = (bytes: Uint8Array) => {
          if (!open) return
          controller.enqueue(bytes)
          if ((controller.desiredSize ?? 0) < 0) {
            finish(new Error('the reader fell too far behind the change feed'))
          }
        }
        send(encoder.encode(`retry: ${RETRY_MS}\n${readyEvent(start)}`))
        timer = setInterval(() => send(KEEP_ALIVE.slice()), settings.keepAliveMs)
        ;(timer as { unref?: () => void }).unref?.()
        settings.signal?.addEventListener('abort', end)
        request.signal?.addEventListener('abort', end)
        if (settings.signal?.aborted) end()
        void (async () => {
          try {
            for (;;) {
              const next = await changes.next()
              if (next.done || !open) break
              send(eventBytes(next.value))
            }
            finish()
          } catch (error) {
            if (open) settings.onError(error, request)
            finish(error)
          }
        })()
      },
      cancel: () => {
        open = false
        stop()
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: settings.maxBufferedBytes }),
  )
  return {
    status: 200,
    headers: {
      'content-type': EVENT_STREAM_TYPE,
      'cache-control': 'no-store',
      vary: 'accept',
      // nginx would otherwise hold the events back in its buffer.
      'x-accel-buffering': 'no',
    },
    body,
  }
}

/**
 * The change a feed resumes after: the header first (a reconnecting EventSource keeps the URL
 * of its first connection). One that is no change id is refused by name, never written back.
 */
function resumeAfter(request: Request, url: URL): { after?: string; path: string } {
  const header = request.headers.get('last-event-id')
  const [path, after] = header
    ? ['Last-Event-ID', header]
    : ['lastEventId', url.searchParams.get('lastEventId')]
  if (!after) return { path }
  if (CHANGE_ID.test(after)) return { after, path }
  throw new InvalidPageRequestError([{ path, message: NOT_OURS }])
}

const NOT_OURS = 'is not an event id of this feed'

const encoder = new TextEncoder()
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n')

// The watches of one owner share their change objects (core/shared-changes.ts): each is
// encoded once for all the feeds that send it. Each feed gets a copy of the bytes: what a
// server does with one body's chunk (transfer it, write into it) is no other body's business.
const encoded = new WeakMap<LogChange, Uint8Array>()

function eventBytes(change: LogChange): Uint8Array {
  let bytes = encoded.get(change)
  if (!bytes) {
    bytes = encoder.encode(eventOf(change))
    encoded.set(change, bytes)
  }
  return bytes.slice()
}

/**
 * The feed's first event: where it starts, as its `id:` (none when the log has kept no change).
 * It carries data because an event without any is dispatched by no parser (eventsource-parser,
 * the client's) and not by every EventSource: with data, each learns the start, and a stream
 * dropped before its first change resumes from it rather than with a `reset`.
 */
function readyEvent(start: string | undefined): string {
  return `event: ready\n${start === undefined ? '' : `id: ${start}\n`}data: {}\n\n`
}

/** One change as an event: its type, its id, and the movie (or its id) as data. */
function eventOf(change: LogChange): string {
  const data =
    change.type === 'added' || change.type === 'updated'
      ? movieJson(change.movie)
      : change.type === 'deleted'
        ? JSON.stringify({ id: change.movie.id })
        : '{}'
  return `event: ${change.type}\nid: ${change.id}\ndata: ${data}\n\n`
}
