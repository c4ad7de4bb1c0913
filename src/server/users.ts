/**
 * A household: the people one server serves, each with a diary and a token of their own. The
 * users file (MOVIE_LOG_USERS) holds a line `name:<SHA-256 of the token, hex>` per person; the
 * tokens themselves are shown once, when `movie-log user add` makes them, and kept nowhere.
 *
 * SHA-256 rather than a slow password hash: the tokens are 256 random bits made by the command,
 * not words a person picked, so there is nothing to guess and a slow hash would only cost every
 * request its time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { checkOwner } from '../core/owner'

/** One person of the household: their diary's owner name and their token's SHA-256. */
export interface User {
  name: string
  tokenHash: Buffer
}

const HASH = /^[0-9a-f]{64}$/i

/** The SHA-256 of a token, as the users file keeps it and as a request's token is compared. */
export const hashToken = (token: string): Buffer => createHash('sha256').update(token).digest()

/** A new token: 32 random bytes, base64url (43 characters, no padding). */
export const newToken = (): string => randomBytes(32).toString('base64url')

/** The users file's line for `name` with `token`, ending in a line break. */
export const userLine = (name: string, token: string): string =>
  `${name}:${hashToken(token).toString('hex')}\n`

/**
 * Why `name` cannot be a person of the users file, or `undefined` when it can: an owner name
 * (1 to 256 characters) on one line, not starting with `#` (a comment) nor with or ending in a
 * space (lines are trimmed).
 */
export function refuseUserName(name: string): string | undefined {
  try {
    checkOwner(name)
  } catch (error) {
    return (error as Error).message
  }
  if (/[\r\n]/.test(name)) return 'The name must be on one line'
  if (name.trim() !== name) return 'The name must not start or end with a space'
  if (name.startsWith('#')) return "The name must not start with '#' (a comment in the file)"
  return undefined
}

/**
 * Reads a users file's text: a `name:hash` line per person (the name is what comes before the
 * last `:`), blank lines and lines starting with `#` skipped. Throws, naming the line, for a
 * line it cannot read, a name twice or a hash twice (two people with one token).
 */
export function parseUsers(text: string): User[] {
  const users: User[] = []
  const names = new Set<string>()
  const hashes = new Set<string>()
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) return
    const where = `line ${index + 1}`
    const colon = line.lastIndexOf(':')
    const name = line.slice(0, colon)
    const hash = line.slice(colon + 1).toLowerCase()
    if (colon < 0 || !HASH.test(hash)) {
      throw new Error(`${where}: not 'name:hash' with the token's SHA-256 in hex`)
    }
    const refused = refuseUserName(name)
    if (refused) throw new Error(`${where}: ${refused}`)
    if (names.has(name)) throw new Error(`${where}: '${name}' is there twice`)
    if (hashes.has(hash)) throw new Error(`${where}: the same token as an earlier line`)
    names.add(name)
    hashes.add(hash)
    users.push({ name, tokenHash: Buffer.from(hash, 'hex') })
  })
  return users
}

/**
 * The `owner` function of a household server: the person whose token the request bears
 * (`Authorization: Bearer <token>`), or `undefined` (a 401) for none or one no one has.
 */
export function ownerOfToken(users: readonly User[]): (request: Request) => string | undefined {
  return (request) => {
    const sent = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
    if (sent === undefined) return undefined
    // Digests of equal length, each compared in constant time, and no early way out: how long
    // it takes says nothing of the token, nor of whose it is.
    const digest = hashToken(sent)
    let owner: string | undefined
    for (const user of users) {
      if (timingSafeEqual(digest, user.tokenHash)) owner = user.name
    }
    return owner
  }
}
