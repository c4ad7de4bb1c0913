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
