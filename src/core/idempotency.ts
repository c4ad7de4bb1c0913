import type { LogDriver } from './driver'
import { IdempotencyError } from './errors'
import type { Movie } from './movie'
import { sha256Hex } from './sha256'

type Claims = Pick<LogDriver, 'create' | 'read' | 'write' | 'get' | 'put' | 'remove'>

/** How long a key replays its first movie, as the IETF idempotency-key draft suggests. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
/** The store calls an attempt makes from its claim on: the claim, the movie, the done record. */
const CALLS_PER_ATTEMPT = 3
/** The log's default `storeTimeoutMs`. */
const DEFAULT_STORE_TIMEOUT_MS = 5000
/** Attempts that ended in this process, remembered by default (see `EndedAttempts`). */
const ENDED_ATTEMPTS_KEPT = 10_000
/** Records of deleted movies, as long as a key can replay (see `finish`). */
const DELETED_PREFIX = 'deleted:'

const KEY_FORM = /^[\x21-\x7e]{1,255}$/

interface ClaimRecord {
  fingerprint: string
  /** The movie of the first attempt, id included: whoever finishes the add writes this one. */
  movie: Movie
  state: 'pending' | 'done'
  /**
   * Until when another process leaves the add to its first attempt: as long as the attempt's
   * calls can take, each bounded by the store timeout. 0 once the attempt has ended.
   */
  lockedUntil: number
  /** The first attempt's own id: the process it ran in knows whether it has ended. */
  attempt?: string
}

/**
 * The attempts that ended in this process (a 503, a timeout, a lost connection) before their
 * add was recorded as done: a retry that reaches this process finishes such an add at once
 * rather than waiting out its lock. Bounded: past `capacity` the oldest are forgotten, and
 * their retries wait for the lock as another process's retries would.
 *
 * @example
 * ```ts
 * const ended = new EndedAttempts(1000)
 * await addOnce(driver, key, input, movie, Date.now, { ended })
 * ```
 */
export class EndedAttempts {
  private readonly attempts = new Set<string>()

  constructor(private readonly capacity = ENDED_ATTEMPTS_KEPT) {}

  add(attempt: string): void {
    this.attempts.add(attempt)
    if (this.attempts.size > this.capacity) {
      this.attempts.delete(this.attempts.values().next().value as string)
    }
  }

  has(attempt: string | undefined): boolean {
    return attempt !== undefined && this.attempts.has(attempt)
  }

  delete(attempt: string | undefined): void {
    if (attempt !== undefined) this.attempts.delete(attempt)
  }

  get size(): number {
    return this.attempts.size
  }
}

// One per process: an attempt's id is unique, whichever log or store it ran on.
const processEndedAttempts = new EndedAttempts()

/** Options of `addOnce`. */
export interface AddOnceOptions {
  /** The bound on one store call: an attempt holds its claim for as long as its calls can take. */
  storeTimeoutMs?: number
  /** What this process remembers of attempts that ended in it. Default: one per process. */
  ended?: EndedAttempts
}

/**
 * Adds `movie` once per idempotency key, across every process sharing the store. The first
 * request claims the key with its movie; a retry with the same input gets that movie back, one
 * with another input gets IDEMPOTENCY_KEY_REUSED, and one while the first is running gets
 * IDEMPOTENCY_KEY_IN_FLIGHT. A first attempt that ended without finishing (the store failed or
 * timed out) does not hold its retries back: it releases its claim if the store lets it, and
 * its process remembers it ended, so a retry finishes the add at once with the same movie, same
 * id. A store adds an id once, so a key never yields two movies, and a movie edited or deleted
 * since is not brought back. A process that died holds the claim until its lock passes: as long
 * as its attempt's store calls could have taken.
 */
export async function addOnce(
  claims: Claims,
  idempotencyKey: string,
  input: unknown,
  movie: Movie,
  now: () => number,
  { storeTimeoutMs = DEFAULT_STORE_TIMEOUT_MS, ended = processEndedAttempts }: AddOnceOptions = {},
): Promise<Movie> {
  if (!KEY_FORM.test(idempotencyKey)) {
    throw new IdempotencyError(
      'IDEMPOTENCY_KEY_INVALID',
      'The idempotency key must be 1 to 255 visible ASCII characters',
    )
  }
  const key = sha256Hex(idempotencyKey)
  const fingerprint = fingerprintOf(input)
  const claim: ClaimRecord = {
    fingerprint,
    movie,
    state: 'pending',
    lockedUntil: now() + CALLS_PER_ATTEMPT * storeTimeoutMs,
    attempt: crypto.randomUUID(),
  }

  for (let round = 0; round < 3; round++) {
    let created: boolean
    try {
      created = await claims.create(key, JSON.stringify(claim), IDEMPOTENCY_TTL_MS)
    } catch (error) {
      // The claim may have been stored before the call failed: if so, a retry finishes it.
      ended.add(claim.attempt as string)
      throw error
    }
    if (created) return firstAttempt(claims, key, claim, ended)
    const stored = await claims.read(key)
    if (stored === undefined) continue // expired between the two calls: claim it again
    const existing = JSON.parse(stored) as ClaimRecord
    if (existing.fingerprint !== fingerprint) {
      throw new IdempotencyError(
        'IDEMPOTENCY_KEY_REUSED',
        'This idempotency key was already used to add a different movie',
      )
    }
    // The movie as it is now: a retry does not undo an edit made since.
    if (existing.state === 'done') return (await claims.get(existing.movie.id)) ?? existing.movie
    if (existing.lockedUntil > now() && !ended.has(existing.attempt)) {
      throw new IdempotencyError(
        'IDEMPOTENCY_KEY_IN_FLIGHT',
        'The first request with this idempotency key is still being handled; retry shortly',
      )
    }
    return finish(claims, key, existing, ended)
  }
  throw new IdempotencyError('IDEMPOTENCY_KEY_IN_FLIGHT', 'The idempotency key is contended; retry')
}

/** The add that holds the claim. If it ends without finishing, its retries need not wait. */
async function firstAttempt(
  claims: Claims,
  key: string,
  claim: ClaimRecord,
  ended: EndedAttempts,
): Promise<Movie> {
  try {
    await claims.put(claim.movie)
    return await done(claims, key, claim)
  } catch (error) {
    ended.add(claim.attempt as string)
    // Released for other processes, if the store takes the write. Not awaited: the caller gets
    // the error that ended the attempt now, and a release that fails is that same outage.
    claims
      .write(key, JSON.stringify({ ...claim, lockedUntil: 0 }), IDEMPOTENCY_TTL_MS)
      .catch(() => undefined)
    throw error
  }
}

/**
 * Finishes an attempt that ended or died: its movie may be stored already (then `put` leaves
 * it, and any edit made since, alone) or even deleted since, which a deletion record tells.
 * Several retries may finish one add at once: they write the same movie, same id.
 */
async function finish(
  claims: Claims,
  key: string,
  claim: ClaimRecord,
  ended: EndedAttempts,
): Promise<Movie> {
  const added = await claims.put(claim.movie)
  if (added && (await claims.read(DELETED_PREFIX + claim.movie.id)) !== undefined) {
    await claims.remove(claim.movie)
  }
  await done(claims, key, claim)
  ended.delete(claim.attempt)
  return (await claims.get(claim.movie.id)) ?? claim.movie
}

async function done(claims: Claims, key: string, claim: ClaimRecord): Promise<Movie> {
  await claims.write(key, JSON.stringify({ ...claim, state: 'done' }), IDEMPOTENCY_TTL_MS)
  return claim.movie
}

/** Records that a movie was deleted, for as long as an add of it could be retried. */
export async function markDeleted(claims: Pick<Claims, 'create'>, id: string): Promise<void> {
  await claims.create(DELETED_PREFIX + id, '1', IDEMPOTENCY_TTL_MS)
}

// The same JSON, whatever the order of its keys, has the same fingerprint.
function fingerprintOf(input: unknown): string {
  return sha256Hex(canonicalJson(input))
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
