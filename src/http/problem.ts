import {
  MovieLogError,
  type MovieLogErrorCode,
  NOT_A_JSON_OBJECT,
  type StoreFailureReason,
  type StoreUnavailableError,
  type ValidationIssue,
} from '../core/errors'
import { type Reply, reasonPhrase } from './reply'

/**
 * One field problem in a problem response: where (`pointer` into the body) and what.
 *
 * @example
 * ```ts
 * const error: ProblemFieldError = { pointer: '/releaseYear', detail: 'must be from 1870 to 9999' }
 * ```
 */
export interface ProblemFieldError {
  /** JSON Pointer into the request body (`/releaseYear`), for body fields. */
  pointer?: string
  /** Name of the query parameter (`limit`), for query problems. */
  parameter?: string
  detail: string
}

/**
 * An RFC 9457 problem details object, as every movie-log error response carries it.
 *
 * @example
 * ```ts
 * const response = await handler(request)
 * if (!response.ok) {
 *   const problem = (await response.json()) as Problem
 *   for (const error of problem.errors ?? []) console.log(error.pointer, error.detail)
 * }
 * ```
 */
export interface Problem {
  type: string
  title: string
  status: number
  detail: string
  errors?: ProblemFieldError[]
  /** Why the store failed, in a 503 (`'disk-full'`, ...): `StoreUnavailableError.reason`. */
  reason?: StoreFailureReason
  /**
   * In a 503 to a write that timed out: the change may still be stored
   * (`StoreUnavailableError.mayHaveLanded`). Retry it only with the same `Idempotency-Key`.
   */
  mayHaveLanded?: true
}

const PROBLEM_CONTENT_TYPE = 'application/problem+json'
const PROBLEM_TYPE_BASE = 'urn:movie-log:problem:'

// The one table from error codes to HTTP: every adapter answers the same way.
const BY_CODE: Record<MovieLogErrorCode, { status: number; title: string; slug: string }> = {
  INVALID_MOVIE: { status: 400, title: 'Invalid movie', slug: 'invalid-movie' },
  INVALID_PAGE_REQUEST: {
    status: 400,
    title: 'Invalid page request',
    slug: 'invalid-page-request',
  },
  STORE_UNAVAILABLE: { status: 503, title: 'Store unavailable', slug: 'store-unavailable' },
  UNSUPPORTED_STORE: { status: 500, title: 'Unsupported store', slug: 'unsupported-store' },
  // A log used after its close(), or namespaces that disagree: the host's bug, not retryable.
  LOG_CLOSED: { status: 500, title: 'Log closed', slug: 'log-closed' },
  NAMESPACE_CONFLICT: { status: 500, title: 'Namespace conflict', slug: 'namespace-conflict' },
  // Raised by the client, of a server that has no change feed: what that server is, as HTTP.
  FEED_UNAVAILABLE: { status: 501, title: 'Feed unavailable', slug: 'feed-unavailable' },
  IDEMPOTENCY_KEY_INVALID: {
    status: 400,
    title: 'Invalid idempotency key',
    slug: 'invalid-idempotency-key',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    title: 'Idempotency key reused',
    slug: 'idempotency-key-reused',
  },
  IDEMPOTENCY_KEY_IN_FLIGHT: {
    status: 409,
    title: 'Request in progress',
    slug: 'idempotency-key-in-flight',
  },
  MOVIE_NOT_FOUND: { status: 404, title: 'Movie not found', slug: 'movie-not-found' },
  PRECONDITION_FAILED: {
    status: 412,
    title: 'Precondition failed',
    slug: 'precondition-failed',
  },
  // The host's `owner` function named one movie-log cannot keep apart: the host's bug.
  INVALID_OWNER: { status: 500, title: 'Invalid owner', slug: 'invalid-owner' },
  // GET /catalog before `movie-log catalog load`: nothing there yet, the detail says how to load.
  CATALOG_NOT_LOADED: { status: 404, title: 'Catalog not loaded', slug: 'catalog-not-loaded' },
  INVALID_WEBHOOK: { status: 400, title: 'Invalid webhook endpoint', slug: 'invalid-webhook' },
}

// What a 503 tells the client (and the operator it forwards it to): what happened, no internals.
const STORE_DETAILS: Record<StoreFailureReason, string> = {
  unreachable: 'The movie store cannot be reached right now. Try again shortly.',
  timeout: 'The movie store did not answer in time. Try again shortly.',
  'too-many-connections':
    'The movie store refuses new connections: too many connections. Try again shortly.',
  'disk-full': "The movie store's disk is full: nothing can be added until space is freed.",
  'read-only': 'The movie store refuses writes: it is read-only or cannot save to disk.',
  'auth-failed': "The movie store refused the server's credentials.",
  busy: 'The movie store is busy: locked by another writer. Try again shortly.',
  unknown: 'The movie store failed. Try again shortly.',
}

// A write past its time may land all the same: a blind retry could store it twice.
const MAY_HAVE_LANDED =
  'The movie store did not answer in time, and the change may still be stored. A retry with the same Idempotency-Key is safe; without one, read the log before trying again.'

function storeDetail(error: StoreUnavailableError): string {
  if (error.mayHaveLanded) return MAY_HAVE_LANDED
  return STORE_DETAILS[error.reason] ?? STORE_DETAILS.unknown
}

/** A problem reply for an HTTP-level failure (`about:blank`: the status says it all). */
export function problemReply(
  status: number,
  detail: string,
  headers: Record<string, string> = {},
  errors?: ProblemFieldError[],
): Reply {
  const title = reasonPhrase(status)
  return toReply({ type: 'about:blank', title, status, detail, errors }, headers)
}

/** 405, naming the methods the resource answers in `Allow`. */
export function methodNotAllowed(allow: string): Reply {
  return problemReply(405, `This resource answers ${allow}.`, { allow })
}

/** 401, asking for the bearer token. */
export function unauthenticated(): Reply {
  return problemReply(401, 'Send credentials that allow this.', {
    'www-authenticate': 'Bearer realm="movie-log"',
  })
}

/** 406, naming the types the resource is available as. */
export function notAcceptable(types: string): Reply {
  return problemReply(406, `This resource is only available as ${types}.`)
}

/**
 * The problem reply for an error thrown by the core. Anything that is not a movie-log error
 * is a 500 that says nothing of its internals.
 */
export function errorReply(error: unknown): Reply {
  if (!MovieLogError.is(error)) {
    return problemReply(500, 'The server could not complete the request.')
  }
  const { status, title, slug } = BY_CODE[error.code]
  const issues = (error as { issues?: ValidationIssue[] }).issues
  const storeError =
    error.code === 'STORE_UNAVAILABLE' ? (error as StoreUnavailableError) : undefined
  const problem: Problem = {
    type: PROBLEM_TYPE_BASE + slug,
    title,
    status,
    detail: detailFor(error, issues),
    errors: issues?.map((issue) => fieldError(error.code, issue)),
    // The stable word, never the store's own code (an internal).
    reason: storeError?.reason,
    mayHaveLanded: storeError?.mayHaveLanded || undefined,
  }
  // No "try again" for a write that may have landed: a client that retries on Retry-After alone
  // would store it twice. The detail says when a retry is safe.
  return toReply(problem, storeError?.mayHaveLanded ? {} : retryAfter(error.code))
}

// When to try again: store outages are usually short, and a first attempt still running
// usually finishes within a store call or two.
function retryAfter(code: MovieLogErrorCode): Record<string, string> {
  if (code === 'STORE_UNAVAILABLE') return { 'retry-after': '5' }
  if (code === 'IDEMPOTENCY_KEY_IN_FLIGHT') return { 'retry-after': '1' }
  return {}
}

function detailFor(error: MovieLogError, issues: ValidationIssue[] | undefined): string {
  switch (error.code) {
    case 'INVALID_MOVIE':
      return `The movie has ${issues?.length ?? 0} invalid field(s); see errors.`
    case 'INVALID_WEBHOOK':
      return `The webhook endpoint has ${issues?.length ?? 0} invalid field(s); see errors.`
    case 'INVALID_PAGE_REQUEST':
      return `${namesOf(issues ?? [])}; see errors.`
    case 'STORE_UNAVAILABLE':
      return storeDetail(error as StoreUnavailableError)
    case 'UNSUPPORTED_STORE':
    case 'INVALID_OWNER':
    case 'NAMESPACE_CONFLICT':
      return 'The server is not configured correctly.'
    case 'LOG_CLOSED':
      return 'The server closed this movie log: it is shutting down or misconfigured.'
    case 'FEED_UNAVAILABLE':
      return 'This server offers no live change feed.'
    // Written for clients, with nothing internal in them.
    case 'IDEMPOTENCY_KEY_INVALID':
    case 'IDEMPOTENCY_KEY_REUSED':
    case 'IDEMPOTENCY_KEY_IN_FLIGHT':
    case 'MOVIE_NOT_FOUND':
    case 'PRECONDITION_FAILED':
    case 'CATALOG_NOT_LOADED':
      return `${error.message}.`
  }
}

// What a refused request named, each once: its parameters (`from`, `to`), or a header as HTTP
// spells header names (`Last-Event-ID`).
function namesOf(issues: ValidationIssue[]): string {
  const names = [...new Set(issues.map((issue) => issue.path))]
  const kind = names.every((name) => /^[A-Z]/.test(name)) ? 'header' : 'parameter'
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]
  return names.length > 1
    ? `The ${list} ${kind}s are not valid`
    : `The ${list} ${kind} is not valid`
}

function fieldError(code: MovieLogErrorCode, issue: ValidationIssue): ProblemFieldError {
  if (code === 'INVALID_PAGE_REQUEST') return { parameter: issue.path, detail: issue.message }
  return {
    // A movie's fields are flat: a path is one key, dots and all, and a key '' is pointed at as
    // '/'. The body itself, when it is not an object, is pointed at as ''.
    pointer: isAboutBody(issue) ? '' : `/${escapePointer(issue.path)}`,
    detail: issue.message,
  }
}

function isAboutBody(issue: ValidationIssue): boolean {
  return issue.path === '' && issue.message === NOT_A_JSON_OBJECT
}

function escapePointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1')
}

function toReply(problem: Problem, headers: Record<string, string>): Reply {
  headers['content-type'] = PROBLEM_CONTENT_TYPE
  return { status: problem.status, headers, body: JSON.stringify(problem) }
}

/**
 * The answer to an error a host's router raised before the log saw the request (h3: a malformed
 * URL, no route matched): problem details of its status, with none of its message, which may
 * quote the request's URL as built from the Host header.
 */
export function hostErrorReply(error: unknown): Reply {
  const { status } = (error ?? {}) as { status?: unknown }
  const code = typeof status === 'number' && status >= 400 && status <= 599 ? status : 500
  return problemReply(code, HOST_ERROR_DETAILS[code] ?? 'The request could not be answered.')
}

const HOST_ERROR_DETAILS: Record<number, string> = {
  400: 'The request is malformed.',
  404: 'Not found.',
  405: 'This resource does not answer this method.',
  500: 'The server could not complete the request.',
}
