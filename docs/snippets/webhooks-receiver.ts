import { Webhook } from 'standardwebhooks'

declare const secret: string

// #region snippet
// A receiver, in any framework: check the signature on the raw body before trusting it.
export async function receive(request: Request): Promise<Response> {
  const body = await request.text()
  let event: { type: string; timestamp: string; data: { id: string; title?: string } }
  try {
    event = new Webhook(secret).verify(body, Object.fromEntries(request.headers)) as typeof event
  } catch {
    return new Response('bad signature', { status: 400 })
  }
  // At least once: the same `webhook-id` may come again after a failure; do its work once.
  console.log(request.headers.get('webhook-id'), event.type, event.data.id)
  return new Response(null, { status: 204 })
}
// #endregion snippet
