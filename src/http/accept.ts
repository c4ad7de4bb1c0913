/**
 * Whether an `Accept` header lets us answer with `application/json` (RFC 9110 §12.5.1): the
 * most specific media range that matches decides, and `q=0` refuses. No header accepts all.
 */
export function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return true
  let best: { specificity: number; quality: number } | undefined
  for (const range of accept.split(',')) {
    const [mediaRange = '', ...parameters] = range
      .split(';')
      .map((part) => part.trim().toLowerCase())
    const specificity = matchSpecificity(mediaRange)
    if (specificity < 0 || (best && best.specificity >= specificity)) continue
    best = { specificity, quality: quality(parameters) }
  }
  return best !== undefined && best.quality > 0
}

// 2: application/json, 1: application/*, 0: */*, -1: no match.
function matchSpecificity(mediaRange: string): number {
  if (mediaRange === 'application/json') return 2
  if (mediaRange === 'application/*') return 1
  if (mediaRange === '*/*') return 0
  return -1
}

function quality(parameters: string[]): number {
  const q = parameters.find((parameter) => parameter.startsWith('q='))
  if (q === undefined) return 1
  const value = Number(q.slice(2))
  return Number.isFinite(value) ? value : 1
}

/**
 * What `GET /movies` can answer with: the JSON array, an export of every movie, or the feed of
 * its changes (Server-Sent Events).
 */
export type ListType = 'json' | 'ndjson' | 'csv' | 'events'

// In the order ties are settled: a header that names the feed wants it (an EventSource sends
// `text/event-stream` alone), then JSON before the exports.
const LIST_TYPES: [ListType, string][] = [
  ['events', 'text/event-stream'],
  ['json', 'application/json'],
  ['ndjson', 'application/x-ndjson'],
  ['csv', 'text/csv'],
]

/**
 * The type `GET /movies` answers an `Accept` header with: the one of highest quality, each
 * rated by its most specific matching range. Ties go to the feed, then JSON, then NDJSON;
 * `undefined` when the header refuses all four. An export or the feed is sent only when named:
 * a wildcard (any type, `text/*`) never turns a list into a download or a stream.
 */
export function listTypeOf(accept: string | null): ListType | undefined {
  if (accept === null || accept.trim() === '') return 'json'
  const ranges = accept.split(',').map((range) => {
    const [mediaRange = '', ...parameters] = range.split(';').map((p) => p.trim().toLowerCase())
    return { mediaRange, quality: quality(parameters) }
  })
  let best: { type: ListType; quality: number } | undefined
  for (const [type, mediaType] of LIST_TYPES) {
    let match: { specificity: number; quality: number } | undefined
    for (const { mediaRange, quality } of ranges) {
      const specificity =
        type === 'json'
          ? rangeSpecificity(mediaRange, mediaType)
          : mediaRange === mediaType
            ? 2
            : -1
      if (specificity > (match?.specificity ?? -1)) match = { specificity, quality }
    }
    if (match && match.quality > 0 && match.quality > (best?.quality ?? 0)) {
      best = { type, quality: match.quality }
    }
  }
  return best?.type
}

// 2: the type itself, 1: its `type/*`, 0: `*/*`, -1: no match.
function rangeSpecificity(mediaRange: string, mediaType: string): number {
  if (mediaRange === mediaType) return 2
  if (mediaRange === `${mediaType.split('/')[0]}/*`) return 1
  return mediaRange === '*/*' ? 0 : -1
}
