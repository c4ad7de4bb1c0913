/**
 * Content negotiation, once for every route: `negotiator` reads the `Accept` header (RFC 9110
 * §12.5.1: q values, wildcards, the most specific range deciding). The contract's rules sit on
 * top: no header takes anything, ties (same q, same specificity) go to the type offered first,
 * not to the range the header lists first, and a type offered only
 * when named (an export, the feed) is never chosen by a wildcard.
 */
import Negotiator from 'negotiator'
import { createLru } from '../core/lru'

/**
 * The type of `offers` the `Accept` header prefers, or `undefined` when it refuses them all.
 * `named`: the offers a wildcard (`*\/*`, `text/*`) does not choose; the header must name them.
 */
export function preferredType<Type extends string>(
  accept: string | null,
  offers: readonly Type[],
  named: readonly Type[] = [],
): Type | undefined {
  // No header takes anything: the first type a wildcard may choose.
  if (accept === null || accept.trim() === '') return offers.find((type) => !named.includes(type))
  const negotiator = new Negotiator({ headers: { accept } })
  const listed = named.length > 0 ? namedTypes(negotiator) : undefined
  const candidates = offers.filter((type) => !named.includes(type) || listed?.has(type))
  const best = bestOf(negotiator, candidates)
  if (best === undefined) return undefined
  // negotiator settles a tie (same q, same specificity) by the order of the header's ranges;
  // ours settles it by the order of the offers (JSON before an export). An offer ties with the
  // best when the header read with its ranges the other way round prefers it instead.
  const reversed = new Negotiator({ headers: { accept: accept.split(',').reverse().join(',') } })
  for (const offer of candidates) {
    if (offer === best) break
    if (bestOf(reversed, [offer, best]) === offer) return offer
  }
  return best
}

function bestOf<Type extends string>(negotiator: Negotiator, candidates: Type[]): Type | undefined {
  // negotiator matches a range's parameters against the offer's: `application/json;
  // charset=utf-8`, which clients send, matches only an offer with that charset.
  const withCharset = candidates.map((type) => `${type};charset=utf-8`)
  const best = negotiator.mediaTypes([...candidates, ...withCharset])[0]
  return best?.split(';')[0] as Type | undefined
}

// The types the header names itself (q above 0), as negotiator reads them.
function namedTypes(negotiator: Negotiator): Set<string> {
  return new Set(negotiator.mediaTypes().map((type) => type.toLowerCase()))
}

const JSON_TYPE = 'application/json'

/**
 * `read(accept)` remembered for the last headers seen: a client sends the same `Accept` on
 * every request, and reading it again costs as much as answering a small page from a cache.
 * Bounded, since the header is the client's to choose.
 */
function remembered<Result>(read: (accept: string | null) => Result, most = 64) {
  // Boxed: a result may be undefined, which the cache answers for a header not seen.
  const seen = createLru<string | null, { result: Result }>(most)
  return (accept: string | null): Result => {
    const kept = seen.get(accept)
    if (kept) return kept.result
    const result = read(accept)
    seen.set(accept, { result })
    return result
  }
}

/** Whether an `Accept` header lets us answer with `application/json`. No header accepts all. */
export const acceptsJson: (accept: string | null) => boolean = remembered(
  (accept) => preferredType(accept, [JSON_TYPE]) !== undefined,
)

/**
 * What `GET /movies` can answer with: the JSON array, an export of every movie, or the feed of
 * its changes (Server-Sent Events).
 */
export type ListType = 'json' | 'ndjson' | 'csv' | 'events'

// In the order ties are settled: a header that names the feed wants it (an EventSource sends
// `text/event-stream` alone), then JSON before the exports.
const LIST_TYPES: Record<string, ListType> = {
  'text/event-stream': 'events',
  [JSON_TYPE]: 'json',
  'application/x-ndjson': 'ndjson',
  'text/csv': 'csv',
}
const LIST_OFFERS = Object.keys(LIST_TYPES)
// An export or the feed is sent only when named: a wildcard never turns a list into a download
// or a stream.
const NAMED_ONLY = LIST_OFFERS.filter((type) => type !== JSON_TYPE)

/**
 * The type `GET /movies` answers an `Accept` header with, or `undefined` when the header
 * refuses all four.
 */
export const listTypeOf: (accept: string | null) => ListType | undefined = remembered((accept) => {
  const type = preferredType(accept, LIST_OFFERS, NAMED_ONLY)
  return type === undefined ? undefined : LIST_TYPES[type]
})
