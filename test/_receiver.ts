/**
 * A real webhook receiver for the delivery tests: an HTTP server on 127.0.0.1 that records each
 * request it is sent and answers as the test says (a status, a redirect, or no answer at all),
 * and lets a test wait for what is sure to come. Closed after each test.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect } from 'vitest'

/** One request the receiver was sent. */
export interface Received {
  path: string
  headers: Record<string, string>
  body: string
  /** What the receiver answered it: a status, or `hang` (never answered). */
  answered: number | 'hang'
}

/** How the receiver answers a request: a status (a 3xx with a `Location`), or never. */
export type Answer = number | 'hang'

export interface Receiver {
  url: string
  received: Received[]
  /** Answers the next requests with these, in turn; 200 once they run out. */
  answerNext(...answers: Answer[]): void
  /** Answers the requests left hanging, 200. */
  release(): void
  /** Waits for `count` requests in all (a hang guard: fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>
  close(): Promise<void>
}

const open: Receiver[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((receiver) => receiver.close()))
})

/** Starts a receiver on 127.0.0.1 (closed after the test). */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = []
  const answers: Answer[] = []
  const waiters = new Set<() => void>()
  const hanging = new Set<ServerResponse>()
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const answered = answers.shift() ?? 200
      received.push({
        path: request.url ?? '',
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        answered,
      })
      for (const wake of waiters) wake()
      if (answered === 'hang') {
        hanging.add(response)
        return
      }
      if (answered >= 300 && answered < 400) response.setHeader('location', '/moved')
      response.writeHead(answered).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answerNext: (...next) => answers.push(...next),
    release: () => {
      for (const response of hanging) response.writeHead(200).end()
      hanging.clear()
    },
    waitFor: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(received.slice(0, count))
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`the receiver got ${received.length} requests, not ${count}`))
        }, timeoutMs)
        waiters.add(check)
        check()
      }),
    close: async () => {
      for (const response of hanging) response.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
  open.push(receiver)
  return receiver
}

/** The payloads received, parsed. */
export const payloadsOf = (received: Received[]) =>
  received.map(
    (request) =>
      JSON.parse(request.body) as {
        type: string
        timestamp: string
        data: { id: string; title?: string }
      },
  )

/** Expects no more than `count` requests to have come (what was delivered stays delivered). */
export function expectReceived(receiver: Receiver, count: number): void {
  expect(receiver.received).toHaveLength(count)
}
