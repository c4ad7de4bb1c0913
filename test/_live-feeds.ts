import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { EventSource } from 'eventsource'
import type { Movie } from 'movie-log'
import { afterEach, expect } from 'vitest'
import { newToken, userLine } from '../src/server/users'

/** One event an EventSource delivered. */
export interface Received {
  type: string
  id: string
  data: unknown
}

/** A real EventSource (the `eventsource` package) and the events it has delivered. */
export interface Feed {
  source: EventSource
  received: Received[]
  opened: Promise<unknown>
  /** Resolves once `count` events have arrived, waiting at most `timeoutMs` (10 s) for them. */
  events(count: number, timeoutMs?: number): Promise<void>
}

const sources: EventSource[] = []
afterEach(() => {
  for (const source of sources.splice(0)) source.close()
})

/** An EventSource on `url` (closed after the test); `headers` sent with each of its requests. */
export function openFeed(url: string, headers: Record<string, string> = {}): Feed {
  const received: Received[] = []
  const source = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...(init?.headers as object), ...headers } }),
  })
  sources.push(source)
  for (const type of ['added', 'updated', 'deleted', 'reset']) {
    source.addEventListener(type, (event) => {
      received.push({ type, id: event.lastEventId, data: JSON.parse(event.data) })
    })
  }
  const opened = once(source as unknown as EventTarget, 'open')
  const events = async (count: number, timeoutMs = 10_000) => {
    await expect
      .poll(() => received.length >= count, { timeout: timeoutMs, interval: 20 })
      .toBe(true)
  }
  return { source, received, opened, events }
}

/** `added Title`, `deleted <id>`: what a feed received, to compare at a glance. */
export const titles = (received: Received[]) =>
  received.map(({ type, data }) => `${type} ${(data as Movie).title ?? (data as Movie).id}`)

/** Writes a users file of `names` into `folder`: its path and each person's bearer header. */
export function household(folder: string, names: string[]) {
  const file = join(folder, 'users')
  const tokens = names.map(() => newToken())
  writeFileSync(file, names.map((name, n) => userLine(name, tokens[n] as string)).join(''), {
    mode: 0o600,
  })
  const bearer = Object.fromEntries(
    names.map((name, n) => [name, { authorization: `Bearer ${tokens[n]}` }]),
  ) as Record<string, Record<string, string>>
  return { file, bearer }
}

/** A request with a JSON body (when given) and `headers`. */
export const send = (
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
) =>
  fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
