import { createHash } from 'node:crypto'
import type { MovieDriver } from '../drivers/types'
import { IdempotencyError } from './errors'
import type { Movie } from './movie'

type Claims = Pick<MovieDriver, 'create' | 'read' | 'write' | 'get' | 'put' | 'remove'>

/** How long a key replays its first movie, as the IETF idempotency-key draft suggests. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000
/** How long a first attempt may take before a retry may finish it. */
const IDEMPOTENCY_LOCK_MS = 30_000
/** Records of deleted movies, as long as a key can replay (see `finish`). */
const DELETED_PREFIX = 'deleted:'

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
 * same id: a store adds an id once, so a key never yields two movies, and a movie edited or
 * deleted since is not brought back.
 */
export async function addOnce(
  claims: Claims,
  idempotencyKey: string,
  input: unknown,
  movie: Movie,
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
      await claims.put(movie)
      return done(claims, key, claim)
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
    // The movie as it is now: a retry does not undo an edit made since.
    if (existing.state === 'done') return (await claims.get(existing.movie.id)) ?? existing.movie
    if (existing.lockedUntil > now()) {
      throw new IdempotencyError(
        'IDEMPOTENCY_KEY_IN_FLIGHT',
        'The first request with this idempotency key is still being handled; retry shortly',
      )
    }
    return finish(claims, key, existing)
  }
  throw new IdempotencyError('IDEMPOTENCY_KEY_IN_FLIGHT', 'The idempotency key is contended; retry')
}

/**
 * Finishes an attempt that died: its movie may be stored already (then `put` leaves it, and
 * any edit made since, alone) or even deleted since, which a deletion record tells.
 */
async function finish(claims: Claims, key: string, claim: ClaimRecord): Promise<Movie> {
  const added = await claims.put(claim.movie)
  if (added && (await claims.read(DELETED_PREFIX + claim.movie.id)) !== undefined) {
    await claims.remove(claim.movie)
  }
  await done(claims, key, claim)
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
