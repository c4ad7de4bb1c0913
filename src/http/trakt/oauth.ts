/**
 * Trakt's OAuth device flow (`/oauth/device/code`, `/oauth/device/token`), refresh
 * (`/oauth/token`) and revoke (`/oauth/revoke`), answered as Trakt answers them; and the diary
 * page's own `/oauth/device/approve`, where a signed-in person enters the user code.
 */
import type { LogRecords } from '../../core/records'
import { isObject } from '../../formats/scrobble'
import type { Reply } from '../reply'
import {
  answerUserCode,
  DEVICE_CODE_SECONDS,
  type Grantee,
  type GrantRecords,
  grantsOf,
  newDeviceCode,
  POLL_INTERVAL_SECONDS,
  pollDeviceCode,
  refreshTokens,
  revokeGrant,
  revokeToken,
} from './grants'
import { emptyOk, traktError, traktJson } from './replies'

const text = (body: unknown, field: string): string | undefined => {
  const value = isObject(body) ? body[field] : undefined
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** `POST /oauth/device/code`: a device code, and the code and page its person goes to. */
export async function deviceCode(
  records: LogRecords,
  now: number,
  verificationUrl: string,
  body: unknown,
) {
  // The app's client_id, kept to tell the person's apps apart on the diary page.
  const client = text(body, 'client_id')?.slice(0, 64)
  const { deviceCode, userCode } = await newDeviceCode(records, now, client)
  return traktJson(200, {
    device_code: deviceCode,
    user_code: userCode,
    verification_url: verificationUrl,
    expires_in: DEVICE_CODE_SECONDS,
    interval: POLL_INTERVAL_SECONDS,
  })
}

// Trakt's statuses for a device's poll, and what clients print for each.
const POLL_ERRORS = {
  pending: [400, 'authorization_pending', 'The code has not been approved yet.'],
  unknown: [404, 'invalid_grant', 'No such device code.'],
  used: [409, 'invalid_grant', 'This code was already used.'],
  expired: [410, 'expired_token', 'The code expired: ask for a new one.'],
  denied: [418, 'access_denied', 'The code was denied.'],
  'slow-down': [429, 'slow_down', 'Polling too quickly: wait the interval between polls.'],
} as const

/** `POST /oauth/device/token`: 400 until approved, then the tokens once. */
export async function deviceToken(records: LogRecords, now: number, body: unknown): Promise<Reply> {
  const code = text(body, 'code')
  if (!code) return traktError(400, 'invalid_request', 'Send the device code as code.')
  const answer = await pollDeviceCode(records, code, now)
  if (answer.kind === 'tokens') return traktJson(200, answer.tokens)
  const [status, error, description] = POLL_ERRORS[answer.kind]
  return traktError(status, error, description)
}

/** `POST /oauth/token` with `grant_type: refresh_token`: new tokens, the old pair spent. */
export async function refreshToken(
  records: LogRecords,
  now: number,
  body: unknown,
  grants: GrantRecords,
): Promise<Reply> {
  if (text(body, 'grant_type') !== 'refresh_token') {
    return traktError(
      400,
      'unsupported_grant_type',
      'Sign in with the device flow; this grant refreshes only.',
    )
  }
  const refresh = text(body, 'refresh_token')
  const tokens = refresh && (await refreshTokens(records, refresh, now, grants))
  if (!tokens) {
    return traktError(
      401,
      'invalid_grant',
      'The refresh token is invalid, expired, revoked or was used.',
    )
  }
  return traktJson(200, tokens)
}

/** `POST /oauth/revoke`: the access token and its refresh token stop acting, whoever asks. */
export async function revoke(records: LogRecords, body: unknown): Promise<Reply> {
  const token = text(body, 'token')
  if (!token) return traktError(400, 'invalid_request', 'Send the access token as token.')
  await revokeToken(records, token)
  return emptyOk()
}

/**
 * `POST /oauth/device/approve` `{ user_code, approve }`: the diary page's answer to a code, for
 * the person `owner` its request reached (their diary is the token's). Not Trakt's: Trakt's
 * clients never call it.
 */
export async function approve(
  records: LogRecords,
  person: { owner: Grantee; personal: LogRecords },
  now: number,
  body: unknown,
): Promise<Reply> {
  const userCode = text(body, 'user_code')
  if (!userCode)
    return traktError(400, 'invalid_request', 'Send the code shown on the device as user_code.')
  const approved = !(isObject(body) && body.approve === false)
  const answer = approved
    ? ({ approve: true, ...person, now } as const)
    : ({ approve: false } as const)
  if (!(await answerUserCode(records, userCode, answer))) {
    return traktError(
      404,
      'invalid_grant',
      'No device is waiting for this code: it may have expired.',
    )
  }
  return traktJson(200, { approved })
}

/**
 * `GET /oauth/grants`: the apps the signed-in person approved whose tokens still act (the diary
 * page's; Trakt's clients never call it).
 */
export async function listGrants(personal: LogRecords, now: number): Promise<Reply> {
  return traktJson(200, await grantsOf(personal, now))
}

/**
 * `DELETE /oauth/grants/{id}`: revokes one of the signed-in person's apps; its tokens, refreshed
 * or not, stop acting. 404 for an id that is not one of theirs, or not live.
 */
export async function deleteGrant(personal: LogRecords, id: string, now: number): Promise<Reply> {
  const slot = /^\d{1,6}$/.test(id) ? Number(id) : undefined
  if (slot === undefined || !(await revokeGrant(personal, slot, now))) {
    return traktError(404, 'not_found', 'None of your apps has this id: it may be revoked already.')
  }
  return { status: 204, headers: {}, body: null }
}
