/**
 * Standard Webhooks' signature (https://www.standardwebhooks.com): HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed by the bytes of the secret after `whsec_`,
 * sent as `v1,<base64>`. Web Crypto: any runtime signs.
 */

const encoder = new TextEncoder()
const SECRET_PREFIX = 'whsec_'

/** The headers of one delivery attempt: its message id, the attempt's time, the signature. */
export interface SignedHeaders {
  'webhook-id': string
  'webhook-timestamp': string
  'webhook-signature': string
}

/**
 * Signs a delivery: `timestamp` in seconds since the epoch, as the header carries it.
 *
 * @example
 * ```ts
 * const headers = await signDelivery(secret, 'msg_1', Math.floor(Date.now() / 1000), body)
 * ```
 */
export async function signDelivery(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): Promise<SignedHeaders> {
  const key = await crypto.subtle.importKey(
    'raw',
    keyBytes(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const signed = `${id}.${timestamp}.${body}`
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(signed)))
  let binary = ''
  for (const byte of mac) binary += String.fromCharCode(byte)
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${btoa(binary)}`,
  }
}

function keyBytes(secret: string): Uint8Array<ArrayBuffer> {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret
  return Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0))
}
