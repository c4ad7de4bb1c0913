/**
 * The Trakt API's sign-in state, in the store's records (src/core/records.ts), shared by every
 * process: device codes waiting for a person to approve them, and the access and refresh tokens
 * issued for them. Only SHA-256 digests of codes and tokens are kept, never the codes or tokens.
 * Each approval is a grant, kept in the person's own records (numbered slots, `trakt:grant:N`),
 * which the diary page lists and revokes: every token issued for it, refreshed or not, carries
 * its number, and stops acting once it is revoked.
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
// A grant's slot outlives every token of it: slots are read in order until one is missing.
const GRANT_RECORD_MS = 10 * 365 * 24 * 3600 * 1000

// No 0/O or 1/I: a person reads the code off one screen and types it into another.
const USER_CODE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/** Whose a grant is: the owner of a diary among many, `null` for the one log. */
export type Grantee = string | null

interface DeviceRecord {
  userCode: string
  expiresAt: number
  state: 'pending' | 'approved' | 'denied'
  owner?: Grantee
  /** The app's `client_id`, as it sent it: how the person tells their apps apart. */
  client?: string
  /** The grant its approval made, in the owner's records. */
  grant?: number
}

/**
 * A token's record: whose it is, the digest of its pair (access for refresh, and back), and the
 * grant it was issued for (none for a token issued before grants were kept).
 */
interface TokenRecord {
  owner: Grantee
  pair: string
  createdAt: number
  grant?: number
}

/** One approval of an app, as the person's records keep it. */
interface GrantRecord {
  approvedAt: number
  /** When a token was last issued for it (approval or refresh): it lives a refresh past it. */
  issuedAt: number
  client: string | null
  revoked: boolean
}

/**
 * An app the person approved, as the diary page lists it.
 *
 * @example
 * ```ts
 * const grant: Grant = { id: 0, approvedAt: '2024-06-01T18:30:00.000Z', client: 'my-app' }
 * ```
 */
export interface Grant {
  id: number
  approvedAt: string
  client: string | null
}

/** The records a grant of `owner` is kept in: that person's own. */
export type GrantRecords = (owner: Grantee) => LogRecords

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
  client?: string,
): Promise<{ deviceCode: string; userCode: string }> {
  const deviceCode = randomToken()
  const device = digest(deviceCode)
  const ttl = DEVICE_CODE_SECONDS * 1000
  // 32^8 codes: a collision is rare, and create-if-absent makes it harmless.
  for (;;) {
    const userCode = randomUserCode()
    if (!(await records.create(`trakt:user-code:${userCode}`, device, ttl))) continue
    const record: DeviceRecord = { userCode, expiresAt: now + ttl, state: 'pending', client }
    await records.write(`trakt:device:${device}`, JSON.stringify(record), DEVICE_RECORD_MS)
    return { deviceCode, userCode }
  }
}

/**
 * A person's answer to a user code: approved for `owner` (a grant kept in `personal`, their
 * records), or denied. False when no live device code has this user code.
 */
export async function answerUserCode(
  records: LogRecords,
  userCode: string,
  answer: { approve: true; owner: Grantee; personal: LogRecords; now: number } | { approve: false },
): Promise<boolean> {
  const device = await records.read(`trakt:user-code:${normaliseUserCode(userCode)}`)
  const record = device && (await readDevice(records, device))
  if (!device || !record || record.state !== 'pending') return false
  const next: DeviceRecord = answer.approve
    ? {
        ...record,
        state: 'approved',
        owner: answer.owner,
        grant: await newGrant(answer.personal, record.client ?? null, answer.now),
      }
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
  const grant = { owner: record.owner ?? null, grant: record.grant }
  return { kind: 'tokens', tokens: await issueTokens(records, grant, now) }
}

/** A new access and refresh token acting for `owner`, under its grant. */
export async function issueTokens(
  records: LogRecords,
  { owner, grant }: { owner: Grantee; grant?: number },
  now: number,
): Promise<IssuedTokens> {
  const [access, refresh] = [randomToken(), randomToken()]
  const [accessDigest, refreshDigest] = [digest(access), digest(refresh)]
  const createdAt = Math.floor(now / 1000)
  const accessRecord: TokenRecord = { owner, pair: refreshDigest, createdAt, grant }
  const refreshRecord: TokenRecord = { owner, pair: accessDigest, createdAt, grant }
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

/**
 * Whose the access token is, or `undefined` for none live (unknown, expired or revoked, or its
 * grant revoked from the diary page).
 */
export async function granteeOf(records: LogRecords, accessToken: string, grants: GrantRecords) {
  const token = await readToken(records, `trakt:access:${digest(accessToken)}`)
  return token && (await grantIsLive(token, grants)) ? token.owner : undefined
}

/**
 * New tokens for a refresh token, which is spent (a second use is refused) along with the
 * access token it came with. `undefined` for a refresh token that is not live.
 */
export async function refreshTokens(
  records: LogRecords,
  refreshToken: string,
  now: number,
  grants: GrantRecords,
): Promise<IssuedTokens | undefined> {
  const key = `trakt:refresh:${digest(refreshToken)}`
  const record = await readToken(records, key)
  if (!record || !(await grantIsLive(record, grants))) return undefined
  // Spent once across processes: the first to claim it refreshes.
  if (!(await records.create(`trakt:spent:${digest(refreshToken)}`, '1', REFRESH_TOKEN_MS))) {
    return undefined
  }
  await records.write(key, REVOKED, 60_000)
  await records.write(`trakt:access:${record.pair}`, REVOKED, 60_000)
  if (record.grant !== undefined) await touchGrant(grants(record.owner), record.grant, now)
  return issueTokens(records, record, now)
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

/** A new grant in the person's records: the first free slot, taken create-if-absent. */
async function newGrant(personal: LogRecords, client: string | null, now: number) {
  const grant: GrantRecord = { approvedAt: now, issuedAt: now, client, revoked: false }
  for (let slot = 0; ; slot++) {
    if (await personal.create(`trakt:grant:${slot}`, JSON.stringify(grant), GRANT_RECORD_MS)) {
      return slot
    }
  }
}

async function readGrant(personal: LogRecords, slot: number): Promise<GrantRecord | undefined> {
  const text = await personal.read(`trakt:grant:${slot}`)
  return text ? (JSON.parse(text) as GrantRecord) : undefined
}

const isLive = (grant: GrantRecord | undefined, now: number): grant is GrantRecord =>
  grant !== undefined && !grant.revoked && now - grant.issuedAt < REFRESH_TOKEN_MS

async function grantIsLive(token: TokenRecord, grants: GrantRecords): Promise<boolean> {
  if (token.grant === undefined) return true
  return isLive(await readGrant(grants(token.owner), token.grant), Date.now())
}

async function touchGrant(personal: LogRecords, slot: number, now: number) {
  const grant = await readGrant(personal, slot)
  if (grant) {
    const touched: GrantRecord = { ...grant, issuedAt: now }
    await personal.write(`trakt:grant:${slot}`, JSON.stringify(touched), GRANT_RECORD_MS)
  }
}

/**
 * The apps the person approved whose tokens still act, first approved first.
 *
 * @example
 * ```ts
 * const apps = await grantsOf(recordsOf(log), Date.now())
 * ```
 */
export async function grantsOf(personal: LogRecords, now: number): Promise<Grant[]> {
  const live: Grant[] = []
  for (let slot = 0; ; slot++) {
    const grant = await readGrant(personal, slot)
    if (!grant) return live
    if (isLive(grant, now)) {
      const approvedAt = new Date(grant.approvedAt).toISOString()
      live.push({ id: slot, approvedAt, client: grant.client })
    }
  }
}

/**
 * Revokes one of the person's grants: every token issued for it stops acting. False for a
 * grant that is not theirs, or not live.
 */
export async function revokeGrant(personal: LogRecords, id: number, now: number) {
  const grant = await readGrant(personal, id)
  if (!isLive(grant, now)) return false
  const revoked: GrantRecord = { ...grant, revoked: true }
  await personal.write(`trakt:grant:${id}`, JSON.stringify(revoked), GRANT_RECORD_MS)
  return true
}
