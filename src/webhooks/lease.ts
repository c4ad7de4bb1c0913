/**
 * Which process delivers to an endpoint: the one holding its lease. Time is cut into periods of
 * `leaseMs`; a period's lease is a record created-if-absent (`webhooks:lease:<id>:<period>`), so
 * one process alone holds it, whichever store and however many processes. The holder claims the
 * next period before its own ends, and so keeps the endpoint while it lives; a process that died
 * holds it to the end of the periods it claimed, then another claims the next. A delivery starts
 * only while the lease has `marginMs` left (the delivery's time limit and the state's write), so
 * two processes never send to one endpoint at once.
 */
import type { LogRecords } from '../core/records'

/** An endpoint's leases, as one process sees them. */
export interface Lease {
  /** Until when this process may start deliveries to the endpoint (0: it may not now). */
  until(): Promise<number>
  /** When it is worth asking again (the next period's start), when `until` said 0. */
  nextTry(): number
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
  // The periods this process claimed (true) or found another's (false): asked once each.
  const periods = new Map<number, boolean>()
  const claim = async (period: number): Promise<boolean> => {
    const known = periods.get(period)
    if (known !== undefined) return known
    const key = `webhooks:lease:${endpoint}:${period}`
    const won = await records.create(key, holder, 2 * leaseMs)
    periods.set(period, won)
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
    nextTry: () => (Math.floor(now() / leaseMs) + 1) * leaseMs,
  }
}
