/**
 * One endpoint's deliveries: the changes after its cursor, read from its owner's history, sent
 * one at a time in order. A 2xx moves the cursor on; a failure keeps it and waits for the next
 * attempt on the retry schedule, and once the schedule is spent the endpoint is `failing` and
 * tried at its last interval. The history keeps the latest 1,000 changes: an endpoint left
 * further behind than that cannot be told everything in order, so it stops, failing, saying why.
 */
import { HISTORY_BOUND, type StoredChange } from '../core/driver'
import type { LogRecords } from '../core/records'
import type { ChangeReader } from '../core/watch'
import type { StoredEndpoint, WebhookEvent } from './endpoint'
import type { Lease } from './lease'
import type { WebhookSender } from './send'
import { signDelivery } from './signature'
import { type DeliveryState, readState, writeState } from './state'

/** Changes read from the history at a time. */
const PAGE = 100

export const HISTORY_LOST = `more changes were made than the history keeps (${HISTORY_BOUND.toLocaleString('en')}) before they could be delivered: remove this endpoint and add it again`

/** What one endpoint's run needs. */
export interface EndpointRun {
  endpoint: StoredEndpoint
  records: LogRecords
  history: ChangeReader
  lease: Lease
  send: WebhookSender
  now: () => number
  /** The waits before each retry of a failed delivery, in ms; the last repeats once failing. */
  retryDelaysMs: readonly number[]
  /** Whether the endpoint is still registered: checked before each delivery. */
  stillThere: () => Promise<boolean>
}

/**
 * Sends what is due to one endpoint now. Resolves to when it should run again (a retry's time,
 * or when the lease may be had), or `undefined` when only a new change will give it work.
 */
export async function deliverDue(run: EndpointRun): Promise<number | undefined> {
  const { endpoint, records, history, lease, now } = run
  // The state is written by the lease's holder alone, skipped changes and all.
  if ((await lease.until()) <= now()) return lease.nextTry()
  const state = await readState(records, endpoint.id)
  if (!state || state.stopped) return undefined
  if (state.retry && state.retry.nextAt > now()) return state.retry.nextAt
  for (;;) {
    const read = await history.changesAfter(state.cursor ?? undefined, PAGE)
    if (read.reset) {
      await writeState(records, endpoint.id, {
        ...state,
        stopped: HISTORY_LOST,
        lastError: { message: HISTORY_LOST, at: now() },
      })
      return undefined
    }
    for (const change of read.changes) {
      if (!endpoint.events.includes(eventOf(change))) {
        state.cursor = change.id
        continue
      }
      if ((await lease.until()) <= now()) return lease.nextTry()
      if (!(await run.stillThere())) return undefined
      const next = await attempt(run, state, change)
      if (next !== undefined) return next
    }
    if (read.changes.length < PAGE) {
      await writeState(records, endpoint.id, state)
      return undefined
    }
  }
}

/** One attempt at one change: the state moved on and kept, or the retry's time when it failed. */
async function attempt(
  run: EndpointRun,
  state: DeliveryState,
  change: StoredChange,
): Promise<number | undefined> {
  const { endpoint, now } = run
  const retry = state.retry?.change === change.id ? state.retry : undefined
  const timestamp = retry?.timestamp ?? new Date(now()).toISOString()
  const body = JSON.stringify({ type: eventOf(change), timestamp, data: change.movie })
  const id = `msg_${endpoint.id.slice(3)}_${change.id}`
  const headers = await signDelivery(endpoint.secret, id, Math.floor(now() / 1000), body)
  const result = await run.send({ url: endpoint.url, headers: { ...headers }, body })
  if (result.ok) {
    state.cursor = change.id
    delete state.retry
    delete state.lastError
    delete state.failing
    await writeState(run.records, endpoint.id, state)
    return undefined
  }
  const at = now()
  const attempts = (retry?.attempts ?? 0) + 1
  const delays = run.retryDelaysMs
  const failing = attempts > delays.length
  const nextAt = at + (delays[Math.min(attempts, delays.length) - 1] ?? 0)
  state.retry = {
    change: change.id,
    attempts,
    timestamp,
    nextAt,
  }
  state.lastError = { message: result.error, at }
  if (failing) state.failing = true
  await writeState(run.records, endpoint.id, state)
  return nextAt
}

const EVENTS: Record<StoredChange['type'], WebhookEvent> = {
  added: 'movie.added',
  updated: 'movie.updated',
  deleted: 'movie.deleted',
}

const eventOf = (change: StoredChange): WebhookEvent => EVENTS[change.type]
