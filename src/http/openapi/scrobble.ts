/**
 * The scrobble route of the OpenAPI document, `/scrobble/{source}`: the webhooks of Plex,
 * Jellyfin and Emby as they send them, and the `generic` shape for any other tool.
 */
import { headerRef, type JsonSchema, problems, schemaRef } from './components'
import { notes, releaseYear, screenedDate } from './schemas'

const generic: JsonSchema = {
  type: 'object',
  description:
    'A finished watch, from any tool (a Kodi add-on, Home Assistant, a script). `imdbId` or `imdbLink` names the movie; the same watch sent again is logged once.',
  required: ['title', 'releaseYear', 'watchedAt'],
  additionalProperties: false,
  properties: {
    imdbId: { type: 'string', pattern: '^tt[0-9]{7,10}$', examples: ['tt0113277'] },
    imdbLink: schemaRef('ImdbLink'),
    title: { type: 'string', minLength: 1, examples: ['Heat'] },
    releaseYear,
    watchedAt: {
      description:
        'When the watch ended: local time as `screenedDate` is written (kept as given), or an instant with its offset, written in the server’s time zone.',
      anyOf: [
        screenedDate,
        { type: 'string', format: 'date-time', examples: ['2024-06-01T18:30:00Z'] },
      ],
    },
    notes: notes('Free text; omitted: "Scrobbled from a webhook".'),
  },
}

// The media servers' payloads: only what the log reads, every other field allowed.
const plex: JsonSchema = {
  type: 'object',
  description:
    'Plex’s webhook payload. Logged: `event` `media.scrobble` of `Metadata.type` `movie`, the IMDb id from `Metadata.Guid[].id` (`imdb://tt…`), watched at `Metadata.lastViewedAt` (Unix seconds).',
  required: ['event'],
  properties: {
    event: { type: 'string', examples: ['media.scrobble'] },
    Metadata: {
      type: 'object',
      properties: {
        type: { type: 'string' },
        title: { type: 'string' },
        year: { type: 'integer' },
        lastViewedAt: { type: 'integer' },
        Guid: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
      },
    },
  },
}

const jellyfin: JsonSchema = {
  type: 'object',
  description:
    'Jellyfin’s webhook plugin, “Send All Properties”. Logged: `NotificationType` `PlaybackStop` of `ItemType` `Movie` with `PlayedToCompletion`, the IMDb id from `Provider_imdb`, watched at `UtcTimestamp`.',
  required: ['NotificationType'],
  properties: {
    NotificationType: { type: 'string', examples: ['PlaybackStop'] },
    ItemType: { type: 'string' },
    PlayedToCompletion: { type: 'boolean' },
    Provider_imdb: { type: 'string' },
    Name: { type: 'string' },
    Year: { type: 'integer' },
    UtcTimestamp: { type: 'string' },
  },
}

const emby: JsonSchema = {
  type: 'object',
  description:
    'Emby’s webhook. Logged: `Event` `playback.stop` of `Item.Type` `Movie` with `PlaybackInfo.PlayedToCompletion`, the IMDb id from `Item.ProviderIds.Imdb`, watched at `Date`.',
  required: ['Event'],
  properties: {
    Event: { type: 'string', examples: ['playback.stop'] },
    Date: { type: 'string' },
    Item: {
      type: 'object',
      properties: {
        Type: { type: 'string' },
        Name: { type: 'string' },
        ProductionYear: { type: 'integer' },
        ProviderIds: { type: 'object', properties: { Imdb: { type: 'string' } } },
      },
    },
    PlaybackInfo: { type: 'object', properties: { PlayedToCompletion: { type: 'boolean' } } },
  },
}

/** `components.schemas` for scrobbles. */
export const SCROBBLE_SCHEMAS: Record<string, JsonSchema> = {
  GenericScrobble: generic,
  PlexWebhook: plex,
  JellyfinWebhook: jellyfin,
  EmbyWebhook: emby,
}

const form = (part: string, schema: string): JsonSchema => ({
  type: 'object',
  required: [part],
  properties: {
    [part]: {
      type: 'string',
      contentMediaType: 'application/json',
      contentSchema: schemaRef(schema),
    },
  },
})

const movieAnswer = (description: string): JsonSchema => ({
  description,
  headers: { ETag: headerRef('ETag') },
  content: { 'application/json': { schema: schemaRef('Movie') } },
})

/** The path's `{source}`, for the scrobble and its preflight alike. */
export const sourceParameter: JsonSchema = {
  name: 'source',
  in: 'path',
  required: true,
  description: 'Whose webhook format the body is.',
  schema: { type: 'string', enum: ['plex', 'jellyfin', 'emby', 'generic'] },
  example: 'generic',
}

export const scrobble: JsonSchema = {
  operationId: 'scrobble',
  summary: 'Log a movie a media server says was watched',
  description:
    'A media server’s webhook: a movie played to completion is logged (`screenedDate` the local time of the watch in the server’s time zone, `notes` naming the source); any other event is 204. One entry per watch (source, IMDb id and time): the same delivery again is 200 with the movie first logged; a rewatch is a new entry. Authorized as adding a movie; the token may come as `?token=`. Plex sends a form whose `payload` part is read, and a `thumb` image after it is never read; Emby JSON, or a form with a `data` part; Jellyfin’s plugin JSON as text/plain or application/json.',
  tags: ['scrobbles'],
  parameters: [
    {
      name: 'token',
      in: 'query',
      description:
        'The bearer token, for senders that cannot set `Authorization` (a header sent wins). Never written to logs.',
      schema: { type: 'string' },
    },
  ],
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: {
          oneOf: [
            schemaRef('GenericScrobble'),
            schemaRef('EmbyWebhook'),
            schemaRef('JellyfinWebhook'),
          ],
        },
        example: {
          imdbId: 'tt0113277',
          title: 'Heat',
          releaseYear: 1995,
          watchedAt: '2024-06-01T18:30:00Z',
        },
      },
      'text/plain': {
        schema: { type: 'string', description: 'Jellyfin’s JSON (JellyfinWebhook).' },
      },
      'multipart/form-data': {
        schema: { oneOf: [form('payload', 'PlexWebhook'), form('data', 'EmbyWebhook')] },
      },
    },
  },
  responses: {
    '201': {
      ...movieAnswer('Logged: the new movie.'),
      headers: { Location: headerRef('Location'), ETag: headerRef('ETag') },
    },
    '200': movieAnswer('This watch was logged already: the movie logged then.'),
    '204': { description: 'Nothing to log: not a movie played to completion.' },
    ...problems(
      'BadRequest',
      'Unauthorized',
      'Forbidden',
      'NoSuchSource',
      'MethodNotAllowed',
      'ContentTooLarge',
      'ScrobbleIncomplete',
      'InternalServerError',
      'ServiceUnavailable',
    ),
  },
}
