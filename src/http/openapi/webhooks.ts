/**
 * `{base}/webhooks` in the OpenAPI document: an owner's outgoing webhook endpoints (tag
 * `webhooks`), and the deliveries they get, as the document's `webhooks` (Standard Webhooks).
 */
import { MAX_ENDPOINTS, MAX_URL_LENGTH, WEBHOOK_EVENTS } from '../../webhooks/endpoint'
import { type JsonSchema, problems, schemaRef } from './components'

const json = (schema: unknown) => ({ 'application/json': { schema } })
const problemJson = { 'application/problem+json': { schema: schemaRef('Problem') } }

const EVENTS: JsonSchema = {
  type: 'array',
  minItems: 1,
  items: { type: 'string', enum: [...WEBHOOK_EVENTS] },
  description: 'The changes the endpoint is told of. Left out: all three.',
}

// An instant as `toISOString` writes it, in UTC.
const INSTANT: JsonSchema = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$',
}

const ENDPOINT_ID: JsonSchema = { type: 'string', pattern: '^ep_[A-Za-z0-9_-]{22}$' }

const NEW_ENDPOINT: JsonSchema = {
  type: 'object',
  required: ['url'],
  additionalProperties: false,
  properties: {
    url: {
      type: 'string',
      maxLength: MAX_URL_LENGTH,
      pattern: '^https?://',
      examples: ['https://example.org/hooks/movies'],
      description:
        'Where deliveries are POSTed: http or https, no user name or password, no fragment. An address on a loopback, private or link-local network is refused unless the server allows it (MOVIE_LOG_WEBHOOK_PRIVATE=1).',
    },
    events: EVENTS,
  },
}

const SHOWN = {
  id: ENDPOINT_ID,
  url: { type: 'string', pattern: '^https?://' },
  events: EVENTS,
  createdAt: INSTANT,
}

const CREATED: JsonSchema = {
  type: 'object',
  required: ['id', 'url', 'events', 'createdAt', 'secret'],
  additionalProperties: false,
  properties: {
    ...SHOWN,
    secret: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$',
      description: 'The signing secret, shown this once: the receiver checks signatures with it.',
    },
  },
}

const ENDPOINT: JsonSchema = {
  type: 'object',
  required: ['id', 'url', 'events', 'createdAt', 'status', 'lastError', 'nextAttemptAt'],
  additionalProperties: false,
  properties: {
    ...SHOWN,
    status: {
      type: 'string',
      enum: ['active', 'failing'],
      description:
        '`failing`: a delivery failed for a day of retries (it is still tried, at the longest interval), or the endpoint fell further behind than the history keeps (nothing more is sent: remove it and add it again).',
    },
    lastError: {
      oneOf: [
        {
          type: 'object',
          required: ['message', 'at'],
          additionalProperties: false,
          properties: {
            message: { type: 'string', examples: ['answered 500'] },
            at: INSTANT,
          },
        },
        { type: 'null' },
      ],
      description: 'The latest failed attempt, until a delivery succeeds.',
    },
    nextAttemptAt: {
      oneOf: [INSTANT, { type: 'null' }],
      description: 'When a failed delivery is tried again.',
    },
  },
}

const NOT_FOUND = {
  description: 'The owner has no endpoint with this id.',
  content: problemJson,
}

const COMMON = problems('Unauthorized', 'Forbidden', 'InternalServerError', 'ServiceUnavailable')

const listWebhooks: JsonSchema = {
  operationId: 'listWebhooks',
  summary: "The owner's webhook endpoints",
  description:
    'Oldest first, each with how its deliveries are doing; never the secret. Asked of `authorize` as `webhooks`.',
  tags: ['webhooks'],
  responses: {
    '200': { description: 'The endpoints.', content: json({ type: 'array', items: ENDPOINT }) },
    ...COMMON,
  },
}

const addWebhook: JsonSchema = {
  operationId: 'addWebhook',
  summary: 'Register a webhook endpoint',
  description: `Told of every change from now on, as Standard Webhooks specify (see this document's webhooks). At most ${MAX_ENDPOINTS} per owner.`,
  tags: ['webhooks'],
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: NEW_ENDPOINT,
        example: { url: 'https://example.org/hooks/movies', events: ['movie.added'] },
      },
    },
  },
  responses: {
    '201': {
      description: 'Registered: its secret, this once.',
      headers: {
        Location: {
          description: 'The endpoint’s URL.',
          schema: { type: 'string' },
          required: true,
        },
      },
      content: json(CREATED),
    },
    ...problems('BadRequest', 'ContentTooLarge', 'UnsupportedMediaType'),
    ...COMMON,
  },
}

const idParameter = {
  name: 'webhookId',
  in: 'path',
  required: true,
  description: 'An endpoint’s id, as `POST` answered it.',
  schema: { type: 'string' },
}

const getWebhook: JsonSchema = {
  operationId: 'getWebhook',
  summary: 'One webhook endpoint',
  tags: ['webhooks'],
  responses: {
    '200': { description: 'The endpoint.', content: json(ENDPOINT) },
    '404': NOT_FOUND,
    ...COMMON,
  },
}

const deleteWebhook: JsonSchema = {
  operationId: 'deleteWebhook',
  summary: 'Remove a webhook endpoint',
  description: 'No delivery to it starts after.',
  tags: ['webhooks'],
  responses: { '204': { description: 'Removed.' }, '404': NOT_FOUND, ...COMMON },
}

/** The paths below the base path, and how HEAD and the preflights are made of them. */
export function webhookPaths(
  headOf: (get: JsonSchema, operationId: string, summary: string) => JsonSchema,
  preflight: (operationId: string) => JsonSchema,
): Record<string, JsonSchema> {
  return {
    '/webhooks': {
      get: listWebhooks,
      head: headOf(listWebhooks, 'headWebhooks', "The owner's webhook endpoints, headers only"),
      post: addWebhook,
      options: preflight('preflightWebhooks'),
    },
    '/webhooks/{webhookId}': {
      parameters: [idParameter],
      get: getWebhook,
      head: headOf(getWebhook, 'headWebhook', 'One webhook endpoint, headers only'),
      delete: deleteWebhook,
      options: preflight('preflightWebhook'),
    },
  }
}

const DELIVERY_HEADER = (description: string) => ({
  description,
  required: true,
  schema: { type: 'string' },
})

/** What each endpoint is sent: the document's `webhooks`, one per event. */
export const WEBHOOK_DELIVERIES: Record<string, JsonSchema> = Object.fromEntries(
  WEBHOOK_EVENTS.map((event) => [
    event,
    {
      post: {
        operationId: `deliver${event.replace('movie.', '').replace(/^./, (c) => c.toUpperCase())}`,
        summary: `A movie ${event.slice(6)}`,
        description:
          'Sent to each endpoint registered for it, in the order of the changes, at least once (a retry has the same `webhook-id`). Answer 2xx within 10 s; anything else is retried: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h. Redirects are not followed.',
        tags: ['webhooks'],
        parameters: [
          {
            name: 'webhook-id',
            in: 'header',
            ...DELIVERY_HEADER('The message id: the same on every attempt.'),
          },
          {
            name: 'webhook-timestamp',
            in: 'header',
            ...DELIVERY_HEADER('This attempt’s time, in seconds since the epoch.'),
          },
          {
            name: 'webhook-signature',
            in: 'header',
            ...DELIVERY_HEADER(
              '`v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed by the base64-decoded secret after `whsec_`.',
            ),
          },
        ],
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            required: ['type', 'timestamp', 'data'],
            properties: {
              type: { const: event },
              timestamp: { ...INSTANT, description: 'When the deliverer first read the change.' },
              data:
                event === 'movie.deleted'
                  ? { type: 'object', required: ['id'], properties: { id: { type: 'string' } } }
                  : schemaRef('Movie'),
            },
          }),
        },
        responses: { '2XX': { description: 'Delivered.' } },
      },
    },
  ]),
)
