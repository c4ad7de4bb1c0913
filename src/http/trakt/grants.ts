/**
 * The Trakt API's sign-in state, in the store's records (src/core/records.ts), shared by every
 * process: device codes waiting for a person to approve them, and the access and refresh tokens
 * issued for them. Only SHA-256 digests of codes and tokens are kept, never the codes or tokens.
 */
import { bytesToBase64Url } from '../../core/base64url'
import type { LogRecords } from '../../core/records'
import { sha256Hex } from '../../core/sha256'

/** How long a device code may wait for its person, in seconds (Trakt's own 600). */
export const DEVICE_CODE_SECONDS = 600
/** How often a device may ask whether its code was approved, in seconds (Trakt's 5). */
export const POLL_INTERVAL_SECONDS = 5
/** How long an access token acts for its person, in seconds (90 days, as Trakt's did). */
export const ACCESS_TOKEN_SECONDS = 90 * 24 * 3600
// A refresh token outlives its access token: a client that slept for months can still refresh.
const REFRESH_TOKEN_MS = 365 * 24 * 3600 * 1000
// A device code's record outlives the code by an hour, so a late poll is told 410, not 404.
const DEVICE_RECORD_MS = (DEVICE_CODE_SECONDS + 3600) * 1000
const REVOKED = 'revoked'

// No 0/O or 1/I: a person reads the code off one screen and types it into another.
const USER_CODE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/** Whose a grant is: the owner of a diary among many, `null` for the one log. */
export type Grantee = string | null

interface DeviceRecord {
  userCode: string
  expiresAt: number
  state: 'pending' | 'approved' | 'denied'
  owner?: Grantee
}

/** A token's record: whose it is, and the digest of its pair (access for refresh, and back). */
interface TokenRecord {
  owner: Grantee
  pair: string
  createdAt: number
}

/** The tokens as Trakt's `/oauth/token` and `/oauth/device/token` answer them. */
export interface IssuedTokens {
  access_token: string
  token_type: 'bearer'
  expires_in: number
  refresh_token: string
  scope: 'public'
  created_at: number
}

const randomToken = () => bytesToBase64Url(crypto.getRandomValues(new Uint8Array(32)))
const digest = (secret: string) => sha256Hex(secret)

function randomUserCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8))
  // 256 is a multiple of 32: each letter equally likely.
  return Array.from(bytes, (byte) => USER_CODE_LETTERS[byte % 32]).join('')
}

/** A user code as a person may type it: any case, spaces and dashes left out. */
export const normaliseUserCode = (typed: string): string =>
  typed.replace(/[\s-]/g, '').toUpperCase()

/** A new device code and its user code, waiting for approval. */
export async function newDeviceCode(
  records: LogRecords,
  now: number,
): Promise<{ deviceCode: string; userCode: string }> {
  const deviceCode = randomToken()
  const device = digest(deviceCode)
  const ttl = DEVICE_CODE_SECONDS * 1000
  // 32^8 codes: a collision is rare, and create-if-absent makes it harmless.
  for (;;) {
    const userCode = randomUserCode()
    if (!(await records.create(`trakt:user-code:${userCode}`, device, ttl))) continue
    const record: DeviceRecord = { userCode, expiresAt: now + ttl, state: 'pending' }
    await records.write(`trakt:device:${device}`, JSON.stringify(record), DEVICE_RECORD_MS)
    return { deviceCode, userCode }
  }
}

/**
 * A person's answer to a user code: approved for `owner`, or denied. False when no live device
 * code has this user code.
 */
export async function answerUserCode(
  records: LogRecords,
  userCode: string,
  answer: { approve: true; owner: Grantee } | { approve: false },
): Promise<boolean> {
  const device = await records.read(`trakt:user-code:${normaliseUserCode(userCode)}`)
  const record = device && (await readDevice(records, device))
  if (!device || !record || record.state !== 'pending') return false
  const next: DeviceRecord = answer.approve
    ? { ...record, state: 'approved', owner: answer.owner }
    : { ...record, state: 'denied' }
  await records.write(`trakt:device:${device}`, JSON.stringify(next), DEVICE_RECORD_MS)
  return true
}

/** What a device's poll is answered, as Trakt's statuses name it. */
export type PollAnswer =
  | { kind: 'tokens'; tokens: IssuedTokens }
  | { kind: 'pending' | 'unknown' | 'expired' | 'used' | 'denied' | 'slow-down' }

/** A device asking whether its code was approved: tokens once, then `used`. */
export async function pollDeviceCode(
  records: LogRecords,
  deviceCode: string,
  now: number,
): Promise<PollAnswer> {
  const device = digest(deviceCode)
  const record = await readDevice(records, device)
  if (!record) return { kind: 'unknown' }
  if (now >= record.expiresAt) return { kind: 'expired' }
  if (record.state === 'denied') return { kind: 'denied' }
  if (record.state === 'pending') {
    // A device polling at twice the pace it was told is slowed; timers that fire a little
    // early are not.
    const last = Number(await records.read(`trakt:poll:${device}`))
    await records.write(`trakt:poll:${device}`, String(now), DEVICE_CODE_SECONDS * 1000)
    const tooSoon = now - last < (POLL_INTERVAL_SECONDS * 1000) / 2
    return { kind: tooSoon ? 'slow-down' : 'pending' }
  }
  // Across processes, one poll gets the tokens: the first to create this record.
  if (!(await records.create(`trakt:used:${device}`, '1', DEVICE_RECORD_MS)))
    return { kind: 'used' }
  return { kind: 'tokens', tokens: await issueTokens(records, record.owner ?? null, now) }
}

/** A new access and refresh token acting for `owner`. */
export async function issueTokens(
  records: LogRecords,
  owner: Grantee,
  now: number,
): Promise<IssuedTokens> {
  const [access, refresh] = [randomToken(), randomToken()]
  const [accessDigest, refreshDigest] = [digest(access), digest(refresh)]
  const createdAt = Math.floor(now / 1000)
  const accessRecord: TokenRecord = { owner, pair: refreshDigest, createdAt }
  const refreshRecord: TokenRecord = { owner, pair: accessDigest, createdAt }
  await records.write(
    `trakt:refresh:${refreshDigest}`,
    JSON.stringify(refreshRecord),
    REFRESH_TOKEN_MS,
  )
  await records.write(
    `trakt:access:${accessDigest}`,
    JSON.stringify(accessRecord),
    ACCESS_TOKEN_SECONDS * 1000,
  )
  return {
    access_token: access,
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refresh,
    scope: 'public',
    created_at: createdAt,
  }
}

/** Whose the access token is, or `undefined` for none live (unknown, expired or revoked). */
export async function granteeOf(records: LogRecords, accessToken: string) {
  return (await readToken(records, `trakt:access:${digest(accessToken)}`))?.owner
}

/**
 * New tokens for a refresh token, which is spent (a second use is refused) along with the
 * access token it came with. `undefined` for a refresh token that is not live.
 */
export async function refreshTokens(
  records: LogRecords,
  refreshToken: string,
  now: number,
): Promise<IssuedTokens | undefined> {
  const key = `trakt:refresh:${digest(refreshToken)}`
  const record = await readToken(records, key)
  if (!record) return undefined
  // Spent once across processes: the first to claim it refreshes.
  if (!(await records.create(`trakt:spent:${digest(refreshToken)}`, '1', REFRESH_TOKEN_MS))) {
    return undefined
  }
  await records.write(key, REVOKED, 60_000)
  await records.write(`trakt:access:${record.pair}`, REVOKED, 60_000)
  return issueTokens(records, record.owner, now)
}

/** Revokes an access token and its refresh token; nothing for one that is not live. */
export async function revokeToken(records: LogRecords, accessToken: string): Promise<void> {
  const key = `trakt:access:${digest(accessToken)}`
  const record = await readToken(records, key)
  if (!record) return
  await records.write(key, REVOKED, 60_000)
  await records.write(`trakt:refresh:${record.pair}`, REVOKED, 60_000)
}

async function readDevice(records: LogRecords, device: string): Promise<DeviceRecord | undefined> {
  const text = await records.read(`trakt:device:${device}`)
  return text ? (JSON.parse(text) as DeviceRecord) : undefined
}

async function readToken(records: LogRecords, key: string): Promise<TokenRecord | undefined> {
  const text = await records.read(key)
  return text && text !== REVOKED ? (JSON.parse(text) as TokenRecord) : undefined
}
