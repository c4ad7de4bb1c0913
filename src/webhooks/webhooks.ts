/** `webhooksOf`: what an owner does with their webhook endpoints: add, list, remove. */
import type { MovieLog, MovieLogs } from '../core/movie-log'
import type { LogRecords } from '../core/records'
import { boundedLookup, type HostLookup, hostRefusal, systemLookup } from './addresses'
import {
  type AddressPolicy,
  MAX_ENDPOINTS,
  type NewWebhookEndpoint,
  newEndpointId,
  newSecret,
  parseNewEndpoint,
  type StoredEndpoint,
  type WebhookEvent,
  WebhookValidationError,
} from './endpoint'
import {
  endpointsChanged,
  isMany,
  noteOwner,
  ownerWebhooks,
  readEndpoints,
  updateEndpoints,
} from './registry'
import { readState, statusOf, type WebhookStatus, writeState } from './state'

/**
 * An endpoint as its owner lists it: no secret (it was shown once, at `add`), and how its
 * deliveries are doing.
 *
 * @example
 * ```ts
 * for (const endpoint of await webhooksOf(log).list()) console.log(endpoint.url, endpoint.status)
 * ```
 */
export interface WebhookEndpoint extends WebhookStatus {
  id: string
  url: string
  events: WebhookEvent[]
  createdAt: string
}

/**
 * An endpoint just registered: its `secret` (`whsec_…`) is shown this once, for the receiver to
 * check the signatures with.
 *
 * @example
 * ```ts
 * const { id, secret } = await webhooksOf(log).add({ url: 'https://example.org/hooks' })
 * ```
 */
export interface CreatedWebhookEndpoint {
  id: string
  url: string
  events: WebhookEvent[]
  createdAt: string
  secret: string
}

/**
 * One owner's webhook endpoints.
 *
 * @example
 * ```ts
 * const hooks: Webhooks = webhooksOf(logs, 'alice')
 * await hooks.remove((await hooks.add({ url })).id)
 * ```
 */
export interface Webhooks {
  /**
   * Registers an endpoint, told of every change from now on. Throws `WebhookValidationError`
   * for a URL that is not http(s), is on a private network (unless allowed), or for unknown
   * events, and past 10 endpoints.
   */
  add(input: NewWebhookEndpoint): Promise<CreatedWebhookEndpoint>
  /** The owner's endpoints, oldest first, each with its status. */
  list(): Promise<WebhookEndpoint[]>
  /** Removes an endpoint: no delivery starts after; false when the owner has none by that id. */
  remove(id: string): Promise<boolean>
}

// A registration waits this long for its host's addresses, then lets it in (delivery looks again).
const LOOKUP_TIMEOUT_MS = 2000

// What a removed endpoint leaves of its state is forgotten after a day: a delivery in flight
// when it was removed may still write it meanwhile.
const forget = (records: LogRecords, id: string) =>
  writeState(records, id, { cursor: null, stopped: 'removed' }, 24 * 3600 * 1000)

/**
 * Options of `webhooksOf`.
 *
 * @example
 * ```ts
 * webhooksOf(log, { allowPrivateNetworks: true })
 * ```
 */
export interface WebhooksOptions extends AddressPolicy {
  /**
   * Resolves an endpoint's host at registration, to refuse a name whose addresses are private
   * (a name that does not resolve is let in: each delivery looks again). Default: `node:dns`.
   */
  lookup?: HostLookup
}

/**
 * The webhook endpoints of a log made by `createMovieLog`, or of one owner of many
 * (`createMovieLogs`): `webhooksOf(logs, 'alice')`. An owner sees and changes their own alone.
 * Deliveries are sent by `startWebhookDelivery`, in whichever process runs it.
 *
 * @example
 * ```ts
 * const { secret } = await webhooksOf(log).add({ url: 'https://example.org/hooks/movies' })
 * ```
 */
export function webhooksOf(log: MovieLog, options?: WebhooksOptions): Webhooks
export function webhooksOf(logs: MovieLogs, owner: string, options?: WebhooksOptions): Webhooks
export function webhooksOf(
  source: MovieLog | MovieLogs,
  ownerOrOptions?: string | WebhooksOptions,
  maybeOptions: WebhooksOptions = {},
): Webhooks {
  const owner = typeof ownerOrOptions === 'string' ? ownerOrOptions : undefined
  const options = typeof ownerOrOptions === 'object' ? ownerOrOptions : maybeOptions
  const { records, history } = ownerWebhooks(source, owner)
  return {
    add: async (input) => {
      const { url, events } = parseNewEndpoint(input, options)
      const host = new URL(url).hostname
      const lookup = boundedLookup(
        options.lookup ?? systemLookup,
        AbortSignal.timeout(LOOKUP_TIMEOUT_MS),
      )
      const refused = !options.allowPrivateNetworks && (await hostRefusal(host, lookup, 'allowed'))
      if (refused) {
        const message = `${refused}: set MOVIE_LOG_WEBHOOK_PRIVATE=1 to allow it`
        throw new WebhookValidationError([{ path: 'url', message }])
      }
      const endpoint: StoredEndpoint = {
        id: newEndpointId(),
        url,
        events,
        secret: newSecret(),
        createdAt: new Date().toISOString(),
      }
      if (isMany(source)) await noteOwner(source, owner as string)
      // Where its deliveries start, written before the endpoint can be seen: the next change.
      const start = { cursor: (await history.latestChange()) ?? null }
      await writeState(records, endpoint.id, start)
      await updateEndpoints(records, (endpoints) => {
        if (endpoints.length >= MAX_ENDPOINTS) {
          throw new WebhookValidationError([
            {
              path: 'url',
              message: `is one too many: an owner may have ${MAX_ENDPOINTS} endpoints; remove one first`,
            },
          ])
        }
        return [...endpoints, endpoint]
      }).catch(async (error: unknown) => {
        await forget(records, endpoint.id).catch(() => {})
        throw error
      })
      endpointsChanged()
      return endpoint
    },
    list: async () => {
      const endpoints = await readEndpoints(records)
      const states = await Promise.all(endpoints.map(({ id }) => readState(records, id)))
      return endpoints.map(({ secret: _, ...shown }, at) => ({ ...shown, ...statusOf(states[at]) }))
    },
    remove: async (id) => {
      let found = false
      await updateEndpoints(records, (endpoints) => {
        found = endpoints.some((endpoint) => endpoint.id === id)
        return found ? endpoints.filter((endpoint) => endpoint.id !== id) : undefined
      })
      if (found) {
        endpointsChanged()
        await forget(records, id)
      }
      return found
    },
  }
}
