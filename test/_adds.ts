import { setTimeout as delay } from 'node:timers/promises'
import type { Movie } from 'movie-log'
import { aMovie } from './_movies'
import type { ServerProcess } from './_processes'

/** What a client saw while adding one movie. */
export interface Added {
  movie: Movie
  /** Every status answered before the 201, in order (503 and 409 are retried). */
  retried: number[]
}

/** Throws, with the server's last lines, if the server process has ended. */
export function assertAlive(server: ServerProcess): void {
  const { exitCode, signalCode } = server.process
  if (exitCode !== null || signalCode !== null) {
    // From the first line of a crash (Node's `throw er`), or the last lines.
    const crash = server.lines.findIndex((line) => /^node:|Error|error/.test(line))
    const lines = crash === -1 ? server.lines.slice(-10) : server.lines.slice(crash, crash + 8)
    throw new Error(`the server exited (${exitCode ?? signalCode}):\n${lines.join('\n')}`)
  }
}

/**
 * POSTs one movie with an Idempotency-Key until it is answered 201, as a careful client does:
 * 503 (store unavailable) and 409 (the first attempt still running) are retried; anything else,
 * or the server process ending, fails. No deadline of its own: driven by the answers and the
 * server process, it stops a server that never recovers only through the test's timeout (a hang
 * guard), so a slow machine only takes longer.
 */
export async function addUntilCreated(
  server: ServerProcess,
  key: string,
  {
    backoffMs = 100,
    onStatus,
  }: {
    backoffMs?: number
    /** Told every answer's status (0: no answer, the connection failed). */
    onStatus?: (status: number) => void
  } = {},
): Promise<Added> {
  const body = JSON.stringify(aMovie({ title: `Movie ${key}` }))
  const retried: number[] = []
  for (;;) {
    assertAlive(server)
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body,
    }).catch((error: Error) => error)
    onStatus?.(response instanceof Response ? response.status : 0)
    if (response instanceof Response) {
      if (response.status === 201) return { movie: (await response.json()) as Movie, retried }
      const text = await response.text()
      if (response.status !== 503 && response.status !== 409)
        throw new Error(`POST ${key}: ${response.status} ${text}`)
      retried.push(response.status)
      // A 409: the first attempt is still running (or died in another process): ask less often.
      if (response.status === 409) await delay(backoffMs * 4)
    } else {
      // The server ending shows in assertAlive; a cut connection alone is retried.
      retried.push(0)
    }
    await delay(backoffMs)
  }
}
