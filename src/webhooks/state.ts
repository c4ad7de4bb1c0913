/**
 * Where each endpoint's deliveries stand, in its owner's records: the last change delivered, the
 * change being retried and when next, the last error. Written by the process that holds the
 * endpoint's lease alone (./lease.ts), so a plain write is enough; read by anyone for the status.
 */
import type { LogRecords } from '../core/records'
import { KEEP_MS } from './versioned-record'

/** An endpoint's deliveries, as kept. */
export interface DeliveryState {
  /**
   * The id of the last change delivered (or skipped: an event the endpoint did not ask for);
   * `null`: from the oldest change the history keeps (the log had none at registration).
   */
  cursor: string | null
  /** The change after the cursor, failed and waiting for its next attempt. */
  retry?: {
    change: string
    /** Attempts made so far. */
    attempts: number
    /** The time in its payload: the same on every attempt. */
    timestamp: string
    nextAt: number
  }
  lastError?: { message: string; at: number }
  /** Retried for a day in vain: still tried, at the longest interval. */
  failing?: boolean
  /** Why deliveries stopped for good (the history no longer reaches the cursor). */
  stopped?: string
}

const stateKey = (endpoint: string) => `webhooks:state:${endpoint}`

/** An endpoint's state, or `undefined` when it has none (removed, or not yet written). */
export async function readState(
  records: LogRecords,
  endpoint: string,
): Promise<DeliveryState | undefined> {
  const text = await records.read(stateKey(endpoint))
  return text === undefined ? undefined : (JSON.parse(text) as DeliveryState)
}

export function writeState(
  records: LogRecords,
  endpoint: string,
  state: DeliveryState,
  ttlMs = KEEP_MS,
): Promise<void> {
  return records.write(stateKey(endpoint), JSON.stringify(state), ttlMs)
}

/**
 * How an endpoint is doing, as its owner reads it: `active`, or `failing` (a day of retries in
 * vain, or stopped), with the last error and when the next attempt is due.
 *
 * @example
 * ```ts
 * const { status, lastError } = (await webhooksOf(log).list())[0]
 * ```
 */
export interface WebhookStatus {
  status: 'active' | 'failing'
  /** The latest failed attempt, until a delivery succeeds. */
  lastError: { message: string; at: string } | null
  /** When a failed delivery is tried again; `null` when none is waiting (or none will be). */
  nextAttemptAt: string | null
}

export function statusOf(state: DeliveryState | undefined): WebhookStatus {
  const iso = (at: number) => new Date(at).toISOString()
  const { lastError, retry } = state ?? {}
  return {
    status: state?.failing || state?.stopped ? 'failing' : 'active',
    lastError: lastError ? { message: lastError.message, at: iso(lastError.at) } : null,
    nextAttemptAt: retry && !state?.stopped ? iso(retry.nextAt) : null,
  }
}
