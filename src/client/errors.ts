/** Reading problem details (RFC 9457) back into the core's error classes. */
import { CatalogNotLoadedError } from '../core/catalog-rows'
import {
  FeedUnavailableError,
  IdempotencyError,
  InvalidPageRequestError,
  LogClosedError,
  MovieValidationError,
  NamespaceConflictError,
  STORE_FAILURE_REASONS,
  type StoreFailureReason,
  StoreUnavailableError,
  UnsupportedStoreError,
  type ValidationIssue,
} from '../core/errors'

/**
 * An HTTP answer that no core error stands for: 401 or 403 from the server's `authorize`, 413
 * for a body past its limit, a 5xx from a proxy, ... `status` and the problem details (when the
 * answer had them) say what it was.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (error instanceof MovieLogHttpError && error.status === 401) askForToken()
 * }
 * ```
 */
export class MovieLogHttpError extends Error {
  override name = 'MovieLogHttpError'
  readonly status: number
  readonly problem: ProblemDetails | undefined

  constructor(status: number, problem?: ProblemDetails, message?: string) {
    super(message ?? `HTTP ${status}${problem?.detail ? `: ${problem.detail}` : ''}`)
    this.status = status
    this.problem = problem
  }
}

export interface ProblemDetails {
  type?: string
  title?: string
  status?: number
  detail?: string
  errors?: { pointer?: string; parameter?: string; detail?: string }[]
  /** A 503's `reason`: why the store failed. */
  reason?: unknown
  /** A 503's `mayHaveLanded`: the write timed out, and may still be stored. */
  mayHaveLanded?: unknown
}

const TYPE_BASE = 'urn:movie-log:problem:'

/** The error a failed answer stands for, as the core would have thrown it. */
export async function errorFrom(
  response: Response,
  operation: string,
  problem?: ProblemDetails,
): Promise<Error> {
  problem ??= await readProblem(response)
  const type = problem?.type?.startsWith(TYPE_BASE) ? problem.type.slice(TYPE_BASE.length) : ''
  const detail = problem?.detail ?? ''
  if (response.status === 503) {
    // The server's reason, when it is one this client knows (a proxy's 503 has none).
    const known = STORE_FAILURE_REASONS.includes(problem?.reason as StoreFailureReason)
    const reason = known ? (problem?.reason as StoreFailureReason) : 'unknown'
    return new StoreUnavailableError(operation, problem, {
      reason,
      mayHaveLanded: problem?.mayHaveLanded === true,
    })
  }
  switch (type) {
    case 'invalid-movie':
      return new MovieValidationError(issuesOf(problem))
    case 'invalid-page-request':
      return new InvalidPageRequestError(issuesOf(problem))
    case 'invalid-idempotency-key':
      return new IdempotencyError('IDEMPOTENCY_KEY_INVALID', detail)
    case 'idempotency-key-reused':
      return new IdempotencyError('IDEMPOTENCY_KEY_REUSED', detail)
    case 'idempotency-key-in-flight':
      return new IdempotencyError('IDEMPOTENCY_KEY_IN_FLIGHT', detail)
    case 'unsupported-store':
      return new UnsupportedStoreError(detail)
    case 'log-closed':
      return new LogClosedError(detail)
    case 'namespace-conflict':
      return new NamespaceConflictError(detail)
    case 'feed-unavailable':
      return new FeedUnavailableError(detail)
    case 'catalog-not-loaded':
      return new CatalogNotLoadedError('on the server')
  }
  return new MovieLogHttpError(response.status, problem)
}

/** Whether `problem` is one a movie-log handler wrote (its `type` is one of the log's). */
export function isLogProblem(problem: ProblemDetails | undefined, slug?: string): boolean {
  if (slug !== undefined) return problem?.type === TYPE_BASE + slug
  return problem?.type?.startsWith(TYPE_BASE) === true
}

export async function readProblem(response: Response): Promise<ProblemDetails | undefined> {
  try {
    const problem = await response.json()
    return problem && typeof problem === 'object' ? problem : undefined
  } catch {
    return undefined // not JSON: a proxy's page, say
  }
}

// The issue paths the core names: a pointer's one segment, unescaped; the body itself is ''.
function issuesOf(problem: ProblemDetails | undefined): ValidationIssue[] {
  return (problem?.errors ?? []).map((error) => ({
    path:
      error.parameter ?? (error.pointer ?? '').slice(1).replaceAll('~1', '/').replaceAll('~0', '~'),
    message: error.detail ?? '',
  }))
}
