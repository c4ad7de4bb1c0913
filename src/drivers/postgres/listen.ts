/**
 * How a PostgreSQL store's processes wake each other's watchers: one LISTEN client per store,
 * and a sweep for the changes whose NOTIFY never came.
 */
import { createHash } from 'node:crypto'
import type { ClientBase } from 'pg'
import type { WakeHub, WakeSource } from '../shared/watchers'
import { CHANGE_CHANNEL, LAST_CHANGE_SEQ } from '../sql/statements'

/** A LISTEN connection of the driver's: its client, and how to let go of it. */
export interface Listening {
  client: ClientBase
  end(): Promise<void>
}

// Reconnects of the LISTEN client back off up to this.
const MOST_BACKOFF_MS = 2000
// How long close() waits for the LISTEN client to say goodbye to a server that may be gone.
const END_WAIT_MS = 1000
// How often the LISTEN client looks for changes whose NOTIFY never came (see openListener).
const SWEEP_MS = 2000

const lastSeq = async ({ client }: Listening): Promise<number> =>
  Number((await client.query<{ seq: string }>(LAST_CHANGE_SEQ)).rows[0]?.seq ?? 0)

/**
 * The wake source of a PostgreSQL store: one client LISTENing on CHANGE_CHANNEL, whose payloads
 * name a log by md5(namespace ':' owner) (short, whatever the names: NOTIFY takes < 8000
 * bytes). When it is lost it is opened again, backing off; each time it listens, everyone is
 * woken (NOTIFY is at most once: what was sent while it was away is read from the history).
 *
 * A writer sends its NOTIFY just after its commit (sql/statements.ts says why), so a writer that
 * dies between the two leaves a change no one is told of. Every SWEEP_MS the client reads the
 * last seq handed out, and wakes everyone when more seqs were taken than NOTIFYs heard: such a
 * change reaches its watchers within about SWEEP_MS, at the cost of one history read per
 * watched owner (not per feed) then. Writes that each sent their NOTIFY cost the sweep nothing.
 */
export function openListener(
  hub: WakeHub,
  namespace: string,
  listenOn: () => Promise<Listening>,
): WakeSource {
  const hashes = new Map<string, string>()
  const hashOf = (owner: string) => {
    let hash = hashes.get(owner)
    if (hash === undefined) {
      if (hashes.size > 10_000) hashes.clear()
      hash = createHash('md5').update(`${namespace}:${owner}`).digest('hex')
      hashes.set(owner, hash)
    }
    return hash
  }
  // NOTIFYs heard since the sweep last looked, of every log on the database (as the seq is).
  let told = 0
  const heard = (message: { channel: string; payload?: string }) => {
    if (message.channel !== CHANGE_CHANNEL) return
    told++
    for (const owner of hub.owners()) if (hashOf(owner) === message.payload) hub.wake(owner)
  }
  let closed = false
  let current: Listening | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let attempts = 0
  const retry = () => {
    if (closed) return
    timer = setTimeout(start, Math.min(100 * 2 ** attempts++, MOST_BACKOFF_MS))
    timer.unref()
  }
  let sweeper: ReturnType<typeof setInterval> | undefined
  // The sweep of one LISTEN client: every SWEEP_MS, more changes made than NOTIFYs heard wakes
  // everyone (a failed write's seq wakes them for nothing, now and then). None when the seq
  // cannot be read (a role with no SELECT on it): then NOTIFY alone wakes.
  const sweepOn = async (mine: Listening) => {
    let seen: number
    try {
      seen = await lastSeq(mine)
    } catch {
      return undefined
    }
    told = 0
    let sweeping = false
    const sweep = setInterval(async () => {
      if (current !== mine) return clearInterval(sweep)
      if (sweeping) return
      sweeping = true
      try {
        const seq = await lastSeq(mine)
        const made = seq - seen
        const heardOf = told
        seen = seq
        told = 0
        if (made > heardOf && current === mine) hub.wakeAll()
      } catch {
        // The client's own error and end events reconnect it.
      } finally {
        sweeping = false
      }
    }, SWEEP_MS)
    sweep.unref()
    return sweep
  }
  const lost = (listening: Listening) => {
    if (current !== listening) return
    current = undefined
    clearInterval(sweeper)
    listening.end().catch(() => {})
    retry()
  }
  const start = async () => {
    let listening: Listening | undefined
    try {
      listening = await listenOn()
      if (closed) {
        await listening.end()
        return
      }
      const mine = listening
      current = mine
      mine.client.on('notification', heard)
      mine.client.on('error', () => lost(mine))
      mine.client.on('end', () => lost(mine))
      await mine.client.query(`LISTEN ${CHANGE_CHANNEL}`)
      attempts = 0
      hub.wakeAll()
      const sweep = await sweepOn(mine)
      if (current === mine) sweeper = sweep
      else clearInterval(sweep)
    } catch {
      if (listening && current === listening) lost(listening)
      else if (!listening) retry()
    }
  }
  start()
  return {
    close: async () => {
      closed = true
      clearTimeout(timer)
      clearInterval(sweeper)
      const listening = current
      current = undefined
      if (!listening) return
      let waited: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        listening.end().catch(() => {}),
        new Promise((done) => {
          waited = setTimeout(done, END_WAIT_MS)
        }),
      ])
      clearTimeout(waited)
    },
  }
}
