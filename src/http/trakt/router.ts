/**
 * Trakt's API under `{base}/trakt`, for the players, scripts and apps that speak it: the routes,
 * who a request acts for (the person who approved its token), and Trakt's error shapes.
 */
import { MovieValidationError } from '../../core/errors'
import type { MovieLog, MovieLogs } from '../../core/movie-log'
import { recordsOf, storeRecordsOf } from '../../core/records'
import { readJsonBody } from '../body'
import type { Reached } from '../owners'
import { errorReply } from '../problem'
import type { Reply } from '../reply'
import { originOf } from '../request'
import type { TraktContext } from './context'
import { type Grantee, type GrantRecords, granteeOf } from './grants'
import { lastActivities, readHistory, readWatched } from './history'
import { addHistory, removeHistory } from './history-write'
import {
  approve,
  deleteGrant,
  deviceCode,
  deviceToken,
  listGrants,
  refreshToken,
  revoke,
} from './oauth'
import { addRatings, readRatings, removeRatings } from './ratings'
import { traktError, traktJson } from './replies'
import { traktScrobble } from './scrobble'

/** What the HTTP contract gives the Trakt routes. */
export interface TraktSettings {
  source: MovieLog | MovieLogs
  maxBodyBytes: number
  timeZone: string | undefined
  /**
   * The person a request of the diary page reaches, as every other route of the log asks
   * (`owner`, then `authorize` for `add`): `undefined` when none may.
   */
  person: (request: Request) => Promise<Reached | undefined>
  match?: TraktContext['match']
}

const GRANT = /^\/oauth\/grants\/([^/]+)$/
const HISTORY = /^\/sync\/history(?:\/([^/]+)(?:\/([^/]+))?)?$/
const RATINGS = /^\/sync\/ratings(?:\/([^/]+)(?:\/([^/]+))?)?$/
const SCROBBLE = /^\/scrobble\/(start|pause|stop)$/

/**
 * Answers `request` for `path`, the part of its path after `{base}/trakt`.
 *
 * @example
 * ```ts
 * const reply = await replyToTrakt(settings, request, url, '/sync/history')
 * ```
 */
export async function replyToTrakt(
  settings: TraktSettings,
  request: Request,
  url: URL,
  path: string,
): Promise<Reply> {
  try {
    return await route(settings, request, url, path.replace(/\/$/, ''))
  } catch (error) {
    // A movie the log refuses (no year, a title too long): Trakt's 422, naming what.
    if (MovieValidationError.is(error)) {
      return traktError(422, 'unprocessable_entity', error.message)
    }
    return errorReply(error)
  }
}

async function route(
  settings: TraktSettings,
  request: Request,
  url: URL,
  path: string,
): Promise<Reply> {
  const now = Date.now()
  const store = storeRecordsOf(settings.source)
  const logOf = (owner: Grantee) =>
    owner === null ? (settings.source as MovieLog) : (settings.source as MovieLogs).of(owner)
  // A person's grants are in their own records.
  const grants: GrantRecords = (owner) => recordsOf(logOf(owner))
  // The diary page's own routes (approving a code, the apps approved) act for the person its
  // request reaches, asked as every other route of the log asks.
  if (path === '/oauth/grants' || GRANT.test(path)) {
    const person = await settings.person(request)
    if (!person) return traktError(401, 'invalid_token', 'Sign in on the diary page first.')
    const personal = grants(person.owner ?? null)
    const id = GRANT.exec(path)?.[1]
    if (id === undefined)
      return request.method === 'GET' ? listGrants(personal, now) : methodNotAllowed()
    return request.method === 'DELETE' ? deleteGrant(personal, id, now) : methodNotAllowed()
  }
  const post = request.method === 'POST'
  const body = post
    ? await readJsonBody(request, settings.maxBodyBytes)
    : { ok: true as const, value: undefined }
  if (!body.ok) return traktError(body.status, 'bad_request', body.detail)
  if (path.startsWith('/oauth/')) {
    if (!post) return methodNotAllowed()
    switch (path) {
      case '/oauth/device/code':
        return deviceCode(store, now, `${originOf(url)}/activate`, body.value)
      case '/oauth/device/token':
        return deviceToken(store, now, body.value)
      case '/oauth/token':
        return refreshToken(store, now, body.value, grants)
      case '/oauth/revoke':
        return revoke(store, body.value)
      case '/oauth/device/approve': {
        const person = await settings.person(request)
        if (!person) return traktError(401, 'invalid_token', 'Sign in on the diary page first.')
        const owner = person.owner ?? null
        return approve(store, { owner, personal: grants(owner) }, now, body.value)
      }
    }
    return notFound()
  }
  const bearer = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
  const owner = bearer === undefined ? undefined : await granteeOf(store, bearer, grants)
  if (owner === undefined) {
    return traktError(
      401,
      'invalid_token',
      'Sign in with the device flow: this token is unknown, expired or revoked.',
    )
  }
  const log = logOf(owner)
  const context: TraktContext = {
    log,
    records: recordsOf(log),
    timeZone: settings.timeZone,
    now,
    match: settings.match,
  }
  const history = HISTORY.exec(path)
  const scrobble = SCROBBLE.exec(path)?.[1] as 'start' | 'pause' | 'stop' | undefined
  if (scrobble) return post ? traktScrobble(context, scrobble, body.value) : methodNotAllowed()
  if (path === '/sync/history' && post) return addHistory(context, body.value)
  if (path === '/sync/history/remove')
    return post ? removeHistory(context, body.value) : methodNotAllowed()
  if (path === '/sync/ratings' && post) return addRatings(context, body.value)
  if (path === '/sync/ratings/remove')
    return post ? removeRatings(context, body.value) : methodNotAllowed()
  if (post) return methodNotAllowed()
  const ratings = RATINGS.exec(path)
  if (ratings) return readRatings(context, ratings[1], ratings[2] && decodeURIComponent(ratings[2]))
  if (history)
    return readHistory(context, url, history[1], history[2] && decodeURIComponent(history[2]))
  switch (path) {
    case '/sync/watched/movies':
      return readWatched(context)
    case '/sync/watched/shows':
      return traktJson(200, [])
    case '/sync/last_activities':
      return lastActivities(context)
    case '/users/settings':
      return traktJson(200, settingsOf(owner))
  }
  return notFound()
}

/** What clients read after signing in: the person's name above all. */
function settingsOf(owner: string | null) {
  const username = owner ?? 'movie-log'
  return {
    user: {
      username,
      private: true,
      name: username,
      vip: false,
      vip_ep: false,
      ids: { slug: username },
    },
    account: { timezone: null, date_format: 'dmy', time_24hr: true, cover_image: null },
    connections: {},
    sharing_text: { watching: null, watched: null, rated: null },
    limits: {
      list: { count: 0, item_count: 0 },
      watchlist: { item_count: 0 },
      favorites: { item_count: 0 },
    },
  }
}

const notFound = () =>
  traktError(404, 'not_found', 'Not found: this server speaks the movie part of Trakt.')
const methodNotAllowed = () =>
  traktError(405, 'method_not_allowed', 'This route does not answer this method.')
