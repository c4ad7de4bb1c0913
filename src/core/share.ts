/**
 * A diary's share link: off until its owner turns it on, a random token that a new link
 * replaces. Kept in the store's records (./records.ts), so every process sees the same link: the
 * owner's own record holds the link (`share:link`), and the store's records hold one lookup per
 * token, the SHA-256 of the token to its owner's name, which says nothing else.
 */
import { bytesToBase64Url } from './base64url'
import type { LogDriver } from './driver'
import { sha256Hex } from './sha256'

/**
 * What `share` takes: whether the shared page, JSON and feeds show the notes (default no),
 * and whether search engines may index the page (default no: `noindex`).
 *
 * @example
 * ```ts
 * await log.share({ notes: true })
 * ```
 */
export interface ShareOptions {
  notes?: boolean
  index?: boolean
}

/**
 * A diary's share link, as `share` makes it and `shared` reads it.
 *
 * @example
 * ```ts
 * const { path } = await log.share() // '/s/3q2-…': below where the page is served
 * ```
 */
export interface ShareLink {
  /** The link's random part: 192 bits from Web Crypto, base64url. */
  token: string
  /** `/s/<token>`: the shared page's path below the page's mount (the server's root). */
  path: string
  /** Whether the notes are shown. */
  notes: boolean
  /** Whether search engines may index the page. */
  index: boolean
  /** When the link was made (ISO 8601, UTC). */
  createdAt: string
}

// A link lasts until its owner revokes it: records need an expiry, so a century.
const LINK_MS = 100 * 365 * 24 * 3600 * 1000
// What a revoked record is written with: gone on the next read, whatever the store.
const GONE_MS = 1
const LINK_KEY = 'share:link'
const TOKEN_BYTES = 24
/** A token as `share` makes them: 32 base64url characters. */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{32}$/

/** The store record of a token's lookup. */
export const lookupKey = (token: string) => `share:token:${sha256Hex(token)}`

type Records = Pick<LogDriver, 'read' | 'write'>

/** The link in an owner's records, or `undefined` when off. */
export async function readLink(own: Records): Promise<ShareLink | undefined> {
  const text = await own.read(LINK_KEY)
  if (!text) return undefined
  const { token, notes, index, createdAt } = JSON.parse(text) as Omit<ShareLink, 'path'>
  return { token, path: `/s/${token}`, notes, index, createdAt }
}

/** A new link for `owner`, the one before revoked. */
export async function makeLink(
  own: Records,
  store: Records,
  owner: string,
  options: ShareOptions,
  now: number,
): Promise<ShareLink> {
  const token = bytesToBase64Url(crypto.getRandomValues(new Uint8Array(TOKEN_BYTES)))
  const before = await readLink(own)
  const link = {
    token,
    notes: options.notes === true,
    index: options.index === true,
    createdAt: new Date(now).toISOString(),
  }
  // The lookup first: a link is never in the owner's record without its way back to them.
  await store.write(lookupKey(token), owner, LINK_MS)
  await own.write(LINK_KEY, JSON.stringify(link), LINK_MS)
  if (before) await store.write(lookupKey(before.token), '', GONE_MS)
  return { ...link, path: `/s/${token}` }
}

/** Turns `owner`'s link off; false when it was off. */
export async function removeLink(own: Records, store: Records): Promise<boolean> {
  const before = await readLink(own)
  if (!before) return false
  await own.write(LINK_KEY, '', GONE_MS)
  await store.write(lookupKey(before.token), '', GONE_MS)
  return true
}
