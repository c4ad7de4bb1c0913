import { createHash } from 'node:crypto'
import type { MovieDriver } from '../drivers/types'
import { IdempotencyError } from './errors'
import type { Movie } from './movie'

type Claims = Pick<MovieDriver, 'create' | 'read' | 'write'>

/** How long a key replays its first movie, as the IETF idempotency-key draft suggests. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
/** How long a first attempt may take before a retry may finish it. */
const IDEMPOTENCY_LOCK_MS = 30_000

const KEY_FORM = /^[\x21-\x7e]{1,255}$/

interface ClaimRecord {
  fingerprint: string
  /** The movie of the first attempt, id included: whoever finishes the add writes this one. */
  movie: Movie
  state: 'pending' | 'done'
  lockedUntil: number
}

/**
 * Adds `movie` once per idempotency key, across every process sharing the store. The first
 * request claims the key with its movie; a retry with the same input gets that movie back, one
 * with another input gets IDEMPOTENCY_KEY_REUSED, and one while the first is running gets
 * IDEMPOTENCY_KEY_IN_FLIGHT. If the first attempt died, a retry finishes it with the same movie,
 * same id: stores write by id, so a key never yields two movies.
 */
export async function addOnce(
  claims: Claims,
  idempotencyKey: string,
  input: unknown,
  movie: Movie,
  put: (movie: Movie) => Promise<void>,
  now: () => number,
): Promise<Movie> {
  if (!KEY_FORM.test(idempotencyKey)) {
    throw new IdempotencyError(
      'IDEMPOTENCY_KEY_INVALID',
      'The idempotency key must be 1 to 255 visible ASCII characters',
    )
  }
  const key = createHash('sha256').update(idempotencyKey).digest('hex')
  const fingerprint = fingerprintOf(input)
  const claim: ClaimRecord = {
    fingerprint,
    movie,
    state: 'pending',
    lockedUntil: now() + IDEMPOTENCY_LOCK_MS,
  }

  for (let attempt = 0; attempt < 3; attempt++) {
    if (await claims.create(key, JSON.stringify(claim), IDEMPOTENCY_TTL_MS)) {
      return finish(claims, key, claim, put)
    }
    const stored = await claims.read(key)
    if (stored === undefined) continue // expired between the two calls: claim it again
    const existing = JSON.parse(stored) as ClaimRecord
    if (existing.fingerprint !== fingerprint) {
      throw new IdempotencyError(
        'IDEMPOTENCY_KEY_REUSED',
        'This idempotency key was already used to add a different movie',
      )
    }
    if (existing.state === 'done') return existing.movie
    if (existing.lockedUntil > now()) {
      throw new IdempotencyError(
        'IDEMPOTENCY_KEY_IN_FLIGHT',
        'The first request with this idempotency key is still being handled; retry shortly',
      )
    }
    return finish(claims, key, existing, put)
  }
  throw new IdempotencyError('IDEMPOTENCY_KEY_IN_FLIGHT', 'The idempotency key is contended; retry')
}

async function finish(
  claims: Claims,
  key: string,
  claim: ClaimRecord,
  put: (movie: Movie) => Promise<void>,
): Promise<Movie> {
  await put(claim.movie)
  await claims.write(key, JSON.stringify({ ...claim, state: 'done' }), IDEMPOTENCY_TTL_MS)
  return claim.movie
}

// The same JSON, whatever the order of its keys, has the same fingerprint.
function fingerprintOf(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input)).digest('hex')
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
