/**
 * What every driver's failure classifier shares: reading an error with its causes, and Node's
 * own errnos (a socket or a file failing), which any client passes on.
 */
import { isProgrammingError } from '../../core/driver'
import { errorChain, type StoreFailure, type StoreFailureReason } from '../../core/errors'

/** A table from a store's codes to reasons, filled by `codes`. */
export type FailureCodes = Record<string, StoreFailureReason>

/** Adds each space-separated code of `list` to `table` as `reason`. */
export function codes(table: FailureCodes, reason: StoreFailureReason, list: string): void {
  for (const code of list.split(' ')) table[code] = reason
}

const ERRNOS: FailureCodes = {}
codes(
  ERRNOS,
  'unreachable',
  'ECONNREFUSED ECONNRESET ECONNABORTED EPIPE ENOTFOUND EAI_AGAIN EHOSTUNREACH EHOSTDOWN ENETUNREACH ENETDOWN',
)
codes(ERRNOS, 'timeout', 'ETIMEDOUT')
codes(ERRNOS, 'disk-full', 'ENOSPC EDQUOT')
codes(ERRNOS, 'read-only', 'EROFS')

/**
 * A Node errno (`ECONNREFUSED`, `ENOSPC`, `EACCES`, ...) on this error itself: a socket or a file
 * failing. Never Node's `ERR_*` codes, which say the code misused an API.
 */
export function errnoFailure(error: Error): StoreFailure | undefined {
  const { code } = error as { code?: unknown }
  if (typeof code !== 'string' || !/^E[A-Z]+(_[A-Z]+)?$/.test(code) || code.startsWith('ERR'))
    return undefined
  return { reason: ERRNOS[code] ?? 'unknown', code }
}

/**
 * Reads `error`, its causes and the errors an AggregateError gathers (a refused connect to each
 * address of a host), outermost first, with `classify`, which reads one error. The first that
 * names a reason decides; one that knows the store failed but not why counts if none does.
 * JavaScript's own errors (a `TypeError`, ...) are bugs wherever they come from: never a
 * failure, nor is anything no classifier recognises.
 */
export function classifyChain(
  error: unknown,
  classify: (error: Error) => StoreFailure | undefined,
): StoreFailure | undefined {
  if (isProgrammingError(error)) return undefined
  let vague: StoreFailure | undefined
  for (const candidate of errorChain(error)) {
    const failure = classify(candidate)
    if (!failure) continue
    if (failure.reason !== 'unknown')
      return { reason: failure.reason, code: failure.code ?? vague?.code }
    vague ??= failure
  }
  return vague
}

/**
 * Node's socket and file errors alone, read through the causes: what any client passes on.
 *
 * @example
 * ```ts
 * classifyNodeFailure(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))
 * // { reason: 'unreachable', code: 'ECONNREFUSED' }
 * ```
 */
export function classifyNodeFailure(error: unknown): StoreFailure | undefined {
  return classifyChain(error, errnoFailure)
}
