/**
 * An outgoing webhook endpoint as its owner registers it: the URL told of the diary's changes,
 * which of them, and the secret deliveries are signed with. The checks of what an owner sends.
 */

import { bytesToBase64Url } from '../core/base64url'
import { MovieLogError, NOT_A_JSON_OBJECT, type ValidationIssue } from '../core/errors'
import { refusedHost } from './addresses'

/** What an endpoint may be told of: a movie added, edited or deleted. */
export const WEBHOOK_EVENTS = ['movie.added', 'movie.updated', 'movie.deleted'] as const

/**
 * One kind of change an endpoint is told of.
 *
 * @example
 * ```ts
 * const events: WebhookEvent[] = ['movie.added']
 * ```
 */
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/**
 * What `webhooksOf(log).add` takes: the endpoint's URL, and the events it is told of (all three
 * when left out).
 *
 * @example
 * ```ts
 * const input: NewWebhookEndpoint = { url: 'https://example.org/hooks/movies', events: ['movie.added'] }
 * ```
 */
export interface NewWebhookEndpoint {
  url: string
  events?: WebhookEvent[]
}

/** An endpoint as the store keeps it: the secret included, which only the deliverer reads. */
export interface StoredEndpoint {
  id: string
  url: string
  events: WebhookEvent[]
  /** `whsec_` and the base64 of the key deliveries are signed with. */
  secret: string
  createdAt: string
}

/** Most endpoints one owner may register. */
export const MAX_ENDPOINTS = 10
/** Longest URL an endpoint may have, in characters. */
export const MAX_URL_LENGTH = 2048

/**
 * An endpoint an owner sent is not valid: `issues` names each field (`url`, `events`).
 *
 * @example
 * ```ts
 * catch (error) { if (WebhookValidationError.is(error)) console.table(error.issues) }
 * ```
 */
export class WebhookValidationError extends MovieLogError {
  override name = 'WebhookValidationError'
  protected static override readonly names = ['WebhookValidationError']
  readonly issues: ValidationIssue[]

  constructor(issues: ValidationIssue[]) {
    const named = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')
    super('INVALID_WEBHOOK', `The webhook endpoint is not valid: ${named}`)
    this.issues = issues
  }
}

/** What registration checks of an address, besides its form. */
export interface AddressPolicy {
  /** Let endpoints on loopback, private and link-local networks in (a household's LAN). */
  allowPrivateNetworks?: boolean
}

/**
 * Checks an endpoint an owner sent and returns it cleaned (the events each once, in the order
 * of `WEBHOOK_EVENTS`), or throws a `WebhookValidationError` naming every problem.
 */
export function parseNewEndpoint(
  input: unknown,
  policy: AddressPolicy = {},
): { url: string; events: WebhookEvent[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new WebhookValidationError([{ path: '', message: NOT_A_JSON_OBJECT }])
  }
  const { url, events, ...others } = input as Record<string, unknown>
  const issues: ValidationIssue[] = Object.keys(others).map((path) => ({
    path,
    message: 'is not a field of a webhook endpoint (url, events)',
  }))
  const checkedUrl = checkUrl(url, policy, issues)
  const checkedEvents = checkEvents(events, issues)
  if (issues.length > 0) throw new WebhookValidationError(issues)
  return { url: checkedUrl as string, events: checkedEvents }
}

function checkUrl(url: unknown, policy: AddressPolicy, issues: ValidationIssue[]) {
  const refuse = (message: string) => issues.push({ path: 'url', message })
  if (typeof url !== 'string') return refuse("is required: the endpoint's absolute http(s) URL")
  if (url.length > MAX_URL_LENGTH) return refuse(`must be at most ${MAX_URL_LENGTH} characters`)
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return refuse('is not a URL')
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return refuse('must be an http: or https: URL')
  }
  if (parsed.username || parsed.password) {
    return refuse('must not hold a user name or password: deliveries are signed instead')
  }
  if (parsed.hash) return refuse('must not have a fragment (#)')
  const refused = !policy.allowPrivateNetworks && refusedHost(parsed.hostname)
  if (refused) return refuse(`${refused}: set MOVIE_LOG_WEBHOOK_PRIVATE=1 to allow it`)
  return parsed.href
}

function checkEvents(events: unknown, issues: ValidationIssue[]): WebhookEvent[] {
  if (events === undefined) return [...WEBHOOK_EVENTS]
  const known: readonly unknown[] = WEBHOOK_EVENTS
  if (
    !Array.isArray(events) ||
    events.length === 0 ||
    !events.every((event) => known.includes(event))
  ) {
    issues.push({
      path: 'events',
      message: `must be a non-empty list of ${WEBHOOK_EVENTS.join(', ')}`,
    })
    return []
  }
  return WEBHOOK_EVENTS.filter((event) => events.includes(event))
}

/** A new endpoint's id: unguessable, so one owner cannot name another's. */
export const newEndpointId = (): string => `ep_${randomText(16)}`

/**
 * A new signing secret as Standard Webhooks writes them: `whsec_` and the base64 of 32 random
 * bytes (the specification asks for 24 to 64).
 */
export function newSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return `whsec_${btoa(binary)}`
}

const randomText = (bytes: number) =>
  bytesToBase64Url(crypto.getRandomValues(new Uint8Array(bytes)))
