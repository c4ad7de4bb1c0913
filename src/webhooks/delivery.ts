/**
 * `startWebhookDelivery`: the deliverer, run by `movie-log serve` and by any app that embeds the
 * log. It reads who registered endpoints, is woken by each change of their logs (the log's own
 * `watch`), and runs each endpoint's deliveries one at a time, off every request: a slow
 * endpoint never slows an add.
 */
import type { MovieLog, MovieLogs } from '../core/movie-log'
import { type HostLookup, systemLookup } from './addresses'
import { deliverDue } from './deliver'
import { leaseOf } from './lease'
import {
  isMany,
  type OwnerWebhooks,
  ownersWithWebhooks,
  ownerWebhooks,
  readEndpoints,
  whenEndpointsChange,
} from './registry'
import { createSender } from './send'
import { type EndpointWorker, endpointWorker } from './worker'

/** How long `stop` waits for the deliveries in flight before it cuts them off. */
const STOP_GRACE_MS = 2000

/** Waits before each retry of a failed delivery: about a day in all (23.7 h), then failing. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  5, 30, 120, 600, 1800, 3600, 7200, 14_400, 28_800, 28_800,
].map((seconds) => seconds * 1000)

/**
 * Options of `startWebhookDelivery`.
 *
 * @example
 * ```ts
 * startWebhookDelivery(log, { timeoutMs: 5000, allowPrivateNetworks: true })
 * ```
 */
export interface WebhookDeliveryOptions {
  /** Deliver to loopback, private and link-local addresses too. Default false. */
  allowPrivateNetworks?: boolean
  /** How long one delivery may take before it counts as failed, in ms. Default 10000. */
  timeoutMs?: number
  /**
   * The waits before each retry of a failed delivery, in ms; once all are spent the endpoint is
   * `failing`, and tried at the last wait. Default: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h,
   * 4 h, 8 h, 8 h (about a day).
   */
  retryDelaysMs?: readonly number[]
  /**
   * An endpoint's lease, in ms: the process holding it delivers, and a process that died passes
   * it on within two leases. Default 60000; at least 2 × (timeoutMs + leaseMs / 6).
   */
  leaseMs?: number
  /** How often endpoints added or removed by another process are read, in ms. Default 10000. */
  refreshMs?: number
  /** The clock, in epoch ms. Default `Date.now`. */
  clock?: () => number
  /** The `fetch` deliveries are posted with. Default: the global one. */
  fetch?: typeof fetch
  /** Resolves a host to its addresses, to check them. Default: `node:dns`'s lookup. */
  lookup?: HostLookup
  /** Told of each store failure met while delivering (delivery goes on). Default: a warning. */
  onError?: (error: unknown) => void
}

/** A running deliverer. */
export interface WebhookDelivery {
  /**
   * Stops: no delivery starts after, and those in flight are waited for, 2 s at most (so that
   * what was delivered is recorded, not sent again), then cut off; the leases are let go.
   */
  stop(): Promise<void>
}

/**
 * Starts delivering the changes of `source` (a log from `createMovieLog`, or `createMovieLogs`'
 * logs) to the endpoints their owners registered (`webhooksOf`), as Standard Webhooks specify:
 * signed, at least once, in order per endpoint, retried for about a day. Every process on a store
 * may run one: each endpoint is delivered to by one of them at a time (a lease in the store).
 *
 * @example
 * ```ts
 * const delivery = startWebhookDelivery(log)
 * process.on('SIGTERM', () => delivery.stop())
 * ```
 */
export function startWebhookDelivery(
  source: MovieLog | MovieLogs,
  options: WebhookDeliveryOptions = {},
): WebhookDelivery {
  checkOptions(options)
  const timeoutMs = options.timeoutMs ?? 10_000
  const leaseMs = options.leaseMs ?? 60_000
  const marginMs = timeoutMs + leaseMs / 6
  if (leaseMs < 2 * marginMs) {
    throw new TypeError(
      `movie-log: leaseMs (${leaseMs}) must be at least 2 × (timeoutMs + leaseMs / 6): raise it or lower timeoutMs`,
    )
  }
  const now = options.clock ?? Date.now
  const refreshMs = options.refreshMs ?? 10_000
  const onError = options.onError ?? warn
  const stopping = new AbortController()
  const cutOff = new AbortController()
  const send = createSender({
    timeoutMs,
    cutOff: cutOff.signal,
    allowPrivateNetworks: options.allowPrivateNetworks ?? false,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    lookup: options.lookup ?? systemLookup,
  })
  const holder = crypto.randomUUID()
  const owners = new Map<string, { side: OwnerWebhooks; endpoints: Map<string, EndpointWorker> }>()

  const ownerOf = (name: string | undefined) => {
    const key = name ?? ''
    let owner = owners.get(key)
    if (!owner) {
      owner = { side: ownerWebhooks(source, name), endpoints: new Map() }
      owners.set(key, owner)
      follow(owner.side, owner.endpoints)
    }
    return owner
  }

  // Each change of the owner's log pokes their endpoints; a watch that fails is begun again.
  const follow = (side: OwnerWebhooks, endpoints: Map<string, EndpointWorker>) => {
    const watch = async () => {
      for await (const _ of side.log.watch({ signal: stopping.signal })) {
        for (const endpoint of endpoints.values()) endpoint.poke()
      }
    }
    const again = (error: unknown) => {
      if (stopping.signal.aborted) return
      onError(error)
      setTimeout(() => watch().catch(again), refreshMs).unref?.()
    }
    watch().catch(again)
  }

  let refreshing: Promise<void> | undefined
  const refresh = async () => {
    const names = isMany(source) ? await ownersWithWebhooks(source) : [undefined]
    for (const name of names) {
      const { side, endpoints } = ownerOf(name)
      const registered = await readEndpoints(side.records)
      const ids = new Set(registered.map((endpoint) => endpoint.id))
      for (const [id, worker] of endpoints) {
        if (!ids.has(id)) {
          endpoints.delete(id)
          await worker.stop()
        }
      }
      for (const endpoint of registered) {
        let worker = endpoints.get(endpoint.id)
        if (!worker) {
          const lease = leaseOf(side.records, endpoint.id, { leaseMs, marginMs, holder, now })
          const stillThere = async () =>
            (await readEndpoints(side.records)).some((kept) => kept.id === endpoint.id)
          const run = () =>
            deliverDue({
              endpoint,
              records: side.records,
              history: side.history,
              lease,
              send,
              now,
              retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
              stillThere,
            })
          worker = endpointWorker(run, lease, { now, onError, storeRetryMs: refreshMs })
          endpoints.set(endpoint.id, worker)
        }
        // Each refresh pokes every endpoint: what no wake-up reached is caught up here.
        worker.poke()
      }
    }
  }
  let timer: ReturnType<typeof setTimeout> | undefined
  // A tick during a refresh runs one more after it: what changed meanwhile may not have been read.
  let again = false
  const tick = () => {
    if (stopping.signal.aborted) return
    if (refreshing) {
      again = true
      return
    }
    refreshing = refresh()
      .catch(onError)
      .finally(() => {
        refreshing = undefined
        if (again) {
          again = false
          tick()
        }
      })
    clearTimeout(timer)
    timer = setTimeout(tick, refreshMs)
    timer.unref?.()
  }
  const unlisten = whenEndpointsChange(tick)
  tick()

  return {
    stop: async () => {
      stopping.abort()
      unlisten()
      clearTimeout(timer)
      while (refreshing) await refreshing
      const workers = [...owners.values()].flatMap(({ endpoints }) => [...endpoints.values()])
      // A receiver that has not answered within the grace is cut off: stopping stays short.
      const grace = setTimeout(() => cutOff.abort(), STOP_GRACE_MS)
      await Promise.all(workers.map((worker) => worker.stop()))
      clearTimeout(grace)
    },
  }
}

/** Refuses options the deliverer could only misread, when it is started. */
function checkOptions(options: WebhookDeliveryOptions): void {
  for (const name of ['timeoutMs', 'leaseMs', 'refreshMs'] as const) {
    const value = options[name]
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new TypeError(`movie-log: ${name} must be a positive number of ms, not ${value}`)
    }
  }
  const delays = options.retryDelaysMs
  if (
    delays !== undefined &&
    (!Array.isArray(delays) ||
      delays.length === 0 ||
      !delays.every((delay) => Number.isFinite(delay) && delay > 0))
  ) {
    throw new TypeError('movie-log: retryDelaysMs must be a non-empty list of positive ms')
  }
}

function warn(error: unknown): void {
  console.warn(`[movie-log] webhooks: ${error instanceof Error ? error.message : String(error)}`)
}
