/**
 * `{base}/webhooks`: an owner's outgoing webhook endpoints. `GET` lists them with their status,
 * `POST` registers one (201, its `whsec_` secret this once), `GET` / `DELETE {base}/webhooks/{id}`
 * read and remove one. Loaded on the first such request.
 */
import type { MovieLog, MovieLogs } from '../core/movie-log'
import { type Webhooks, type WebhooksOptions, webhooksOf } from '../webhooks/webhooks'
import { readJsonBody } from './body'
import { methodNotAllowed, problemReply } from './problem'
import { JSON_TYPE, jsonReply, type Reply } from './reply'
import { isJsonContentType } from './request'

/** The methods each path answers. */
export const WEBHOOKS_METHODS = 'GET, HEAD, POST'
export const WEBHOOK_METHODS = 'GET, HEAD, DELETE'

/**
 * Answers a request below `{base}/webhooks` for `owner`'s endpoints (the one log's, without
 * one): `path` is what follows it (`''`, `/` or `/{id}`), `location` makes an endpoint's URL.
 */
export function replyToWebhooks(
  source: MovieLog | MovieLogs,
  owner: string | undefined,
  request: Request,
  path: string,
  settings: { maxBodyBytes: number; policy?: WebhooksOptions; location: (id: string) => string },
): Promise<Reply> {
  const webhooks =
    owner === undefined
      ? webhooksOf(source as MovieLog, settings.policy)
      : webhooksOf(source as MovieLogs, owner, settings.policy)
  return reply(webhooks, request, path, settings)
}

async function reply(
  webhooks: Webhooks,
  request: Request,
  path: string,
  settings: { maxBodyBytes: number; location: (id: string) => string },
): Promise<Reply> {
  const { method } = request
  if (path === '' || path === '/') {
    if (method === 'GET' || method === 'HEAD') {
      return jsonReply(200, JSON.stringify(await webhooks.list()), {})
    }
    if (method !== 'POST') return methodNotAllowed(WEBHOOKS_METHODS)
    if (!isJsonContentType(request.headers.get('content-type'))) {
      return problemReply(415, `Send the endpoint as ${JSON_TYPE} (charset utf-8, if any).`, {
        'accept-post': JSON_TYPE,
      })
    }
    const body = await readJsonBody(request, settings.maxBodyBytes)
    if (!body.ok) return problemReply(body.status, body.detail)
    const created = await webhooks.add(body.value as never)
    return jsonReply(201, JSON.stringify(created), { location: settings.location(created.id) })
  }
  const segment = /^\/([^/]+)\/?$/.exec(path)?.[1]
  const id = segment && decoded(segment)
  if (!id) return problemReply(404, 'Not found.')
  if (method === 'DELETE') {
    return (await webhooks.remove(id)) ? { status: 204, headers: {}, body: null } : notFound()
  }
  if (method !== 'GET' && method !== 'HEAD') return methodNotAllowed(WEBHOOK_METHODS)
  const endpoint = (await webhooks.list()).find((kept) => kept.id === id)
  return endpoint ? jsonReply(200, JSON.stringify(endpoint), {}) : notFound()
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

const notFound = () => problemReply(404, 'There is no webhook endpoint with this id.')
