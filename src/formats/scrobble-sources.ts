/**
 * The media servers whose webhooks `POST {base}/scrobble/{source}` reads: one plug-in each, the
 * ones movie-log ships listed here (adding one is one line), and an app's added with
 * `registerPlugin({ scrobbleSources })`.
 */
import { PluginPoint } from '../core/plugin-point'
import { readEmby } from './emby'
import { readGeneric } from './generic-scrobble'
import { readJellyfin } from './jellyfin'
import { readKodi } from './kodi'
import { readPlex } from './plex'
import type { Scrobble } from './scrobble'

/**
 * A media server's webhook format: how its deliveries arrive, and how one is read into a movie
 * to log (a `Scrobble`). A plug-in point of `registerPlugin`.
 *
 * @example
 * ```ts
 * const kodi: ScrobbleSource = {
 *   name: 'kodi',
 *   label: 'Kodi',
 *   read: (payload, receivedAt) =>
 *     isFinished(payload)
 *       ? { kind: 'watched', imdbId: payload.imdb, title: payload.title, releaseYear: payload.year, watchedAt: { instant: receivedAt }, notes: 'Scrobbled from Kodi' }
 *       : { kind: 'ignored' },
 * }
 * ```
 */
export interface ScrobbleSource {
  /** The path segment of its webhook URL: `kodi` for `POST {base}/scrobble/kodi`. */
  name: string
  /** Its name in answers: `Kodi`. The `name` when not given. */
  label?: string
  /** Media types of a JSON body it sends: `application/json` when not given. */
  contentTypes?: readonly string[]
  /** The part holding the JSON when it sends `multipart/form-data` (Plex: `payload`). */
  formPart?: string
  /**
   * One delivery's JSON read: `watched` (logged, once per source, IMDb id and time), `ignored`
   * (204), `incomplete` (422) or `malformed` (400). `receivedAt` (epoch ms) stands in for a
   * watch time the payload lacks.
   */
  read(payload: unknown, receivedAt: number): Scrobble | Promise<Scrobble>
}

const BUILT_IN: readonly ScrobbleSource[] = [
  { name: 'plex', label: 'Plex', contentTypes: [], formPart: 'payload', read: readPlex },
  // Jellyfin's plugin sends its JSON as text/plain unless its user picks application/json.
  {
    name: 'jellyfin',
    label: 'Jellyfin',
    contentTypes: ['application/json', 'text/plain'],
    read: readJellyfin,
  },
  { name: 'emby', label: 'Emby', formPart: 'data', read: readEmby },
  { name: 'kodi', label: 'Kodi', read: readKodi },
  { name: 'generic', read: readGeneric },
]

/** The names of the sources movie-log ships, as the OpenAPI document lists them. */
export const SHIPPED_SCROBBLE_SOURCES: readonly string[] = BUILT_IN.map((source) => source.name)

/** Every scrobble source, an app's first. */
export const scrobbleSources = new PluginPoint<ScrobbleSource>(
  'scrobble source',
  (source) => [source.name],
  ['read'],
  BUILT_IN,
)
