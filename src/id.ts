import { randomFillSync } from 'node:crypto'

/**
 * Makes a new movie id: a string that sorts after every id it made before.
 *
 * @example
 * ```ts
 * let n = 0
 * const generateId: IdGenerator = () => `movie-${String(++n).padStart(8, '0')}`
 * createMovieLog(store, { generateId })
 * ```
 */
export type IdGenerator = () => string

/**
 * Milliseconds since the Unix epoch, like `Date.now`.
 *
 * @example
 * ```ts
 * const frozen: Clock = () => Date.parse('2024-05-01T00:00:00Z')
 * createMovieLog(store, { clock: frozen })
 * ```
 */
export type Clock = () => number

const COUNTER_MAX = 0xfff
// A fresh millisecond starts its counter in the lower half, leaving room for 2048+ ids in it.
const COUNTER_SEED_RANGE = 0x800

/**
 * Creates a UUIDv7 generator (RFC 9562) whose ids sort in the order they were made: the 12-bit
 * `rand_a` field is a counter within one millisecond, and a clock that steps back is ignored.
 * 62 random bits keep ids from different processes apart without coordination.
 */
export function createUuidV7Generator(clock: Clock = Date.now): IdGenerator {
  let lastTime = -1
  let counter = 0

  return () => {
    const now = Math.floor(clock())
    if (now > lastTime) {
      lastTime = now
      counter = randomUint16() % COUNTER_SEED_RANGE
    } else if (counter < COUNTER_MAX) {
      counter += 1
    } else {
      // The counter ran out within one millisecond: borrow the next one.
      lastTime += 1
      counter = randomUint16() % COUNTER_SEED_RANGE
    }
    return formatUuidV7(lastTime, counter)
  }
}

// Random bytes are drawn from the system a pool at a time (as the uuid package does): one
// system call per ~400 ids rather than two per id.
const POOL_SIZE = 4096
const pool = Buffer.allocUnsafe(POOL_SIZE)
let poolOffset = POOL_SIZE

function takeRandom(length: number): number {
  if (poolOffset + length > POOL_SIZE) {
    randomFillSync(pool)
    poolOffset = 0
  }
  const offset = poolOffset
  poolOffset += length
  return offset
}

function randomUint16(): number {
  return pool.readUInt16BE(takeRandom(2))
}

const uuidBytes = Buffer.alloc(16)

function formatUuidV7(time: number, counter: number): string {
  uuidBytes.writeUIntBE(time, 0, 6)
  uuidBytes[6] = 0x70 | (counter >> 8)
  uuidBytes[7] = counter & 0xff
  const random = takeRandom(8)
  pool.copy(uuidBytes, 8, random, random + 8)
  uuidBytes[8] = 0x80 | ((uuidBytes[8] as number) & 0x3f)
  const hex = uuidBytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
