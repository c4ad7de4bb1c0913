/**
 * Which process delivers to an endpoint: the one holding its lease. Time is cut into periods of
 * `leaseMs`; a period's lease is a record created-if-absent (`webhooks:lease:<id>:<period>`), so
 * one process alone holds it, whichever store and however many processes. The holder claims the
 * next period before its own ends, and so keeps the endpoint while it lives; a process that died
 * holds it to the end of the periods it claimed, then another claims the next; one that stops
 * lets its periods go (they expire at once), and another claims the period within `leaseMs / 10`.
 * A delivery starts only while the lease has `marginMs` left (the delivery's time limit and the
 * state's write), so two processes never send to one endpoint at once.
 */
import type { LogRecords } from '../core/records'

/** An endpoint's leases, as one process sees them. */
export interface Lease {
  /** Until when this process may start deliveries to the endpoint (0: it may not now). */
  until(): Promise<number>
  /** When it is worth asking again, when `until` said 0. */
  nextTry(): number
  /** Lets the periods this process claimed go: called once it sends nothing more. */
  release(): Promise<void>
}

/**
 * The lease of `endpoint` for this process: `holder` names it in the records (for people who
 * read them), `now` is the clock every process's periods are cut by.
 */
export function leaseOf(
  records: LogRecords,
  endpoint: string,
  settings: { leaseMs: number; marginMs: number; holder: string; now: () => number },
): Lease {
  const { leaseMs, marginMs, holder, now } = settings
  // A period found another's is asked for again after this long: it may have been let go.
  const askAgainMs = leaseMs / 10
  // The periods this process claimed (true), or found another's until when (a number).
  const periods = new Map<number, true | number>()
  const keyOf = (period: number) => `webhooks:lease:${endpoint}:${period}`
  const claim = async (period: number): Promise<boolean> => {
    const known = periods.get(period)
    if (known === true) return true
    if (known !== undefined && known > now()) return false
    const won = await records.create(keyOf(period), holder, 2 * leaseMs)
    periods.set(period, won || now() + askAgainMs)
    return won
  }
  return {
    async until() {
      const at = now()
      const period = Math.floor(at / leaseMs)
      for (const old of periods.keys()) if (old < period) periods.delete(old)
      if (!(await claim(period))) return 0
      // The next period, claimed in the second half of this one: the endpoint stays here.
      if (at >= (period + 0.5) * leaseMs) await claim(period + 1)
      let end = period + 1
      while (periods.get(end) === true) end++
      const until = end * leaseMs - marginMs
      return until > at ? until : 0
    },
    nextTry: () => {
      const next = (Math.floor(now() / leaseMs) + 1) * leaseMs
      const lost = periods.get(Math.floor(now() / leaseMs))
      return typeof lost === 'number' ? Math.min(lost, next) : next
    },
    async release() {
      const held = [...periods].filter(([, claimed]) => claimed === true)
      periods.clear()
      // Expired at once: create-if-absent takes an expired record as absent.
      await Promise.all(held.map(([period]) => records.write(keyOf(period), holder, 1)))
    },
  }
}
