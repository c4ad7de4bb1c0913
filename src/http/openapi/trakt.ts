/**
 * Trakt's API under `{base}/trakt` in the OpenAPI document, under the tag `trakt`: the movie
 * part of Trakt's own API (its documentation describes the bodies), answered as Trakt answers.
 */
import type { JsonSchema } from './components'

const traktError: JsonSchema = {
  type: 'object',
  description: 'An error as Trakt shapes it.',
  required: ['error', 'error_description'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
}
const json = (description: string): JsonSchema => ({
  description,
  content: { 'application/json': { schema: { type: ['object', 'array'] } } },
})
const errors = (statuses: Record<string, string>): JsonSchema =>
  Object.fromEntries(
    Object.entries(statuses).map(([status, description]) => [
      status,
      {
        description,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/TraktError' } } },
      },
    ]),
  )
const UNAUTHORIZED = { '401': 'No access token, or one unknown, expired or revoked.' }
const body: JsonSchema = {
  required: true,
  content: { 'application/json': { schema: { type: 'object' } } },
}

function operation(
  operationId: string,
  summary: string,
  success: [status: string, description: string],
  failures: Record<string, string>,
  post = false,
): JsonSchema {
  return {
    operationId,
    summary,
    tags: ['trakt'],
    ...(post ? { requestBody: body } : {}),
    responses: { [success[0]]: json(success[1]), ...errors(failures) },
  }
}

const SCROBBLE_FAILURES = {
  ...UNAUTHORIZED,
  '404':
    'A movie without an IMDb id the catalog does not match (none loaded, a TMDB id alone, no one entry of its title and year): Trakt’s unknown item.',
  '409': 'The same movie was stopped within the hour: `watched_at` and `expires_at`, logged once.',
  '422': 'progress is under 1, over 100 or not a number, or the log refuses the movie.',
}

/** The Trakt routes, below the base path, each a path item. */
export const TRAKT_PATHS: Record<string, JsonSchema> = {
  '/trakt/oauth/device/code': {
    post: operation(
      'traktDeviceCode',
      'Start a device sign-in (Trakt)',
      ['200', 'A device code, its user code and the page to enter it at.'],
      { '400': 'The body is not JSON.' },
      true,
    ),
  },
  '/trakt/oauth/device/token': {
    post: operation(
      'traktDeviceToken',
      'Poll a device sign-in (Trakt)',
      ['200', 'The access and refresh tokens, once.'],
      {
        '400': 'Not approved yet (authorization_pending).',
        '404': 'No such device code.',
        '409': 'The code was used already.',
        '410': 'The code expired.',
        '418': 'The code was denied.',
        '429': 'Polling faster than the interval (slow_down).',
      },
      true,
    ),
  },
  '/trakt/oauth/device/approve': {
    post: operation(
      'traktApprove',
      'Approve a device’s code for the signed-in person (the diary page)',
      ['200', 'Approved or denied.'],
      {
        ...UNAUTHORIZED,
        '404': 'No device is waiting for this code.',
      },
      true,
    ),
  },
  '/trakt/oauth/grants': {
    get: operation(
      'traktGrants',
      'The apps the signed-in person approved whose tokens still act (the diary page)',
      [
        '200',
        '`[{ id, approvedAt, client }]`, first approved first; `client` the app’s client_id.',
      ],
      UNAUTHORIZED,
    ),
  },
  '/trakt/oauth/grants/{id}': {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    delete: {
      operationId: 'traktGrantRevoke',
      summary: 'Revoke an app the signed-in person approved (the diary page)',
      tags: ['trakt'],
      responses: {
        '204': {
          description: 'Revoked: every token issued for it, refreshed or not, stops acting.',
        },
        ...errors({
          ...UNAUTHORIZED,
          '404':
            'None of the person’s apps has this id (another person’s ids are not theirs), or it is revoked already.',
        }),
      },
    },
  },
  '/trakt/oauth/token': {
    post: operation(
      'traktRefresh',
      'Refresh tokens (Trakt)',
      ['200', 'A new pair; the old one is spent.'],
      {
        '400': 'Another grant than refresh_token.',
        '401': 'The refresh token is not live.',
      },
      true,
    ),
  },
  '/trakt/oauth/revoke': {
    post: operation(
      'traktRevoke',
      'Revoke a token (Trakt)',
      ['200', 'Revoked, or never live.'],
      { '400': 'No token sent.' },
      true,
    ),
  },
  '/trakt/users/settings': {
    get: operation(
      'traktSettings',
      'The signed-in person’s settings (Trakt)',
      ['200', '`user.username` and the rest clients read.'],
      UNAUTHORIZED,
    ),
  },
  '/trakt/scrobble/{action}': {
    parameters: [
      {
        name: 'action',
        in: 'path',
        required: true,
        schema: { type: 'string', enum: ['start', 'pause', 'stop'] },
      },
    ],
    post: operation(
      'traktScrobble',
      'Scrobble a movie (Trakt): a stop at 80% or more logs it',
      ['201', '`{ id, action, progress, movie }`.'],
      SCROBBLE_FAILURES,
      true,
    ),
  },
  '/trakt/sync/history': {
    get: operation(
      'traktHistory',
      'The diary as Trakt history, newest first, with X-Pagination-* headers',
      ['200', 'Entries `{ id, watched_at, action, type, movie }`.'],
      {
        ...UNAUTHORIZED,
        '400': 'page, limit, start_at or end_at are not what they should be.',
      },
    ),
    post: operation(
      'traktHistoryAdd',
      'Add movies to the diary (Trakt)',
      ['201', '`added` and `not_found`.'],
      UNAUTHORIZED,
      true,
    ),
  },
  '/trakt/sync/history/remove': {
    post: operation(
      'traktHistoryRemove',
      'Remove history entries (Trakt)',
      ['200', '`deleted` and `not_found`.'],
      UNAUTHORIZED,
      true,
    ),
  },
  '/trakt/sync/ratings': {
    get: operation(
      'traktRatings',
      'Each rated movie with its latest rating (Trakt)',
      ['200', 'Entries `{ rated_at, rating, type, movie }`.'],
      UNAUTHORIZED,
    ),
    post: operation(
      'traktRatingsAdd',
      'Rate the latest entry of each movie (Trakt)',
      ['201', '`added` and `not_found` (a movie never logged).'],
      { ...UNAUTHORIZED, '422': 'A rating is not a whole number from 1 to 10; nothing is rated.' },
      true,
    ),
  },
  '/trakt/sync/ratings/{type}': {
    parameters: [{ name: 'type', in: 'path', required: true, schema: { type: 'string' } }],
    get: operation(
      'traktRatingsOfType',
      'Ratings of one type (Trakt): `movies`; any other is empty',
      ['200', 'Entries `{ rated_at, rating, type, movie }`.'],
      UNAUTHORIZED,
    ),
  },
  '/trakt/sync/ratings/{type}/{rating}': {
    parameters: [
      { name: 'type', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'rating', in: 'path', required: true, schema: { type: 'string' } },
    ],
    get: operation(
      'traktRatingsFiltered',
      'Ratings of one type among some values (Trakt), as `8,9,10`',
      ['200', 'Entries `{ rated_at, rating, type, movie }`.'],
      { ...UNAUTHORIZED, '400': 'The filter is not whole numbers 1-10, comma separated.' },
    ),
  },
  '/trakt/sync/ratings/remove': {
    post: operation(
      'traktRatingsRemove',
      'Remove the ratings of movies (Trakt)',
      ['200', '`deleted` and `not_found`.'],
      UNAUTHORIZED,
      true,
    ),
  },
  '/trakt/sync/watched/movies': {
    get: operation(
      'traktWatched',
      'Each movie watched, with its plays (Trakt)',
      ['200', '`plays`, `last_watched_at`, `movie`.'],
      UNAUTHORIZED,
    ),
  },
  '/trakt/sync/last_activities': {
    get: operation(
      'traktLastActivities',
      'When things last changed (Trakt)',
      [
        '200',
        '`movies.watched_at` changes when the history does, `movies.rated_at` when a rating does, from wherever the change came: each the time this server first answered that state (never earlier than the one before); `all` the later of the two.',
      ],
      UNAUTHORIZED,
    ),
  },
}

/** `components.schemas` for the Trakt routes. */
export const TRAKT_SCHEMAS: Record<string, JsonSchema> = { TraktError: traktError }
