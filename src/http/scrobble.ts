/**
 * `POST {base}/scrobble/{source}`: a media server's webhook logs the movie its user finished
 * watching. Each source's payload is read by its reader in `src/formats/`; this file reads the
 * body as that source sends it and answers as the contract says: 201 logged, 200 logged before
 * (the same delivery again), 204 nothing to log, 422 a finished movie without an IMDb id, 400
 * not the source's format.
 */
import type { Catalog } from '../core/catalog'
import type { ValidationIssue } from '../core/errors'
import type { NewMovie } from '../core/movie'
import type { MovieLog } from '../core/movie-log'
import { readEmby } from '../formats/emby'
import { readGeneric } from '../formats/generic-scrobble'
import { readJellyfin } from '../formats/jellyfin'
import { localTimeOf } from '../formats/local-time'
import { readPlex } from '../formats/plex'
import {
  imdbLinkOf,
  SCROBBLE_SOURCES,
  type Scrobble,
  type ScrobbleSource,
} from '../formats/scrobble'
import { type BodyResult, parseJson, readJsonBody } from './body'
import { etagOf } from './conditions'
import { isFormData, readFormPart } from './form-part'
import { problemReply } from './problem'
import { JSON_TYPE, jsonReply, type Reply } from './reply'
import { isJsonContentType, SCROBBLE_KEY_PREFIX } from './request'
import { matched } from './scrobble-match'

const isScrobbleSource = (name: string): name is ScrobbleSource =>
  (SCROBBLE_SOURCES as readonly string[]).includes(name)

export interface ScrobbleSettings {
  maxBodyBytes: number
  timeZone: string | undefined
  /** Where a finished movie without an IMDb id is looked for by its title and year. */
  catalog: Catalog | undefined
  /** The URL of a logged movie. */
  movieUrl: (id: string) => string
}

// What each source sends: Plex a form with a `payload` part; Emby JSON, or a form with `data`;
// Jellyfin's plugin JSON as text/plain unless its user picks application/json.
const FORM_PART: Partial<Record<ScrobbleSource, string>> = { plex: 'payload', emby: 'data' }
const JSON_TYPES: Record<ScrobbleSource, readonly string[]> = {
  plex: [],
  jellyfin: [JSON_TYPE, 'text/plain'],
  emby: [JSON_TYPE],
  generic: [JSON_TYPE],
}
const SOURCE_NAMES: Record<ScrobbleSource, string> = {
  plex: 'Plex',
  jellyfin: 'Jellyfin',
  emby: 'Emby',
  generic: 'generic',
}

/** Logs the watch `request` reports from `source`, once per watch. */
export async function scrobble(
  log: MovieLog,
  request: Request,
  source: string,
  settings: ScrobbleSettings,
): Promise<Reply> {
  if (!isScrobbleSource(source)) {
    return problemReply(404, 'No such scrobble source: use plex, jellyfin, emby or generic.')
  }
  const receivedAt = Date.now()
  const body = await readPayload(request, source, settings.maxBodyBytes)
  // A body left unread (past the limit) cannot be followed by another request on its connection.
  const close: Record<string, string> = body.ended ? {} : { connection: 'close' }
  if (!body.ok) return problemReply(body.status, body.detail, close)
  const read = await matched(readerOf(source)(body.value, receivedAt), settings.catalog)
  switch (read.kind) {
    case 'ignored':
      return { status: 204, headers: close, body: null }
    case 'malformed':
      return problemReply(400, read.detail, close, read.issues && errorsOf(read.issues))
    case 'incomplete':
      return problemReply(
        422,
        `This finished movie cannot be logged: ${read.issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}.`,
        close,
        errorsOf(read.issues),
      )
  }
  const { watchedAt } = read
  const screenedDate =
    'local' in watchedAt ? watchedAt.local : localTimeOf(watchedAt.instant, settings.timeZone)
  const movie = {
    title: read.title,
    screenedDate,
    releaseYear: read.releaseYear,
    imdbLink: imdbLinkOf(read.imdbId),
    notes: read.notes,
  } as NewMovie
  // One identity per watch: the same delivery again finds it, a rewatch (another time) does not.
  const when = 'local' in watchedAt ? watchedAt.local : new Date(watchedAt.instant).toISOString()
  let replayed = false
  const added = await log.addMovie(movie, {
    idempotencyKey: `${SCROBBLE_KEY_PREFIX}${source}:${read.imdbId}:${when}`,
    onReplay: () => {
      replayed = true
    },
  })
  return jsonReply(replayed ? 200 : 201, JSON.stringify(added), {
    ...close,
    ...(replayed ? {} : { location: settings.movieUrl(added.id) }),
    etag: etagOf(added),
  })
}

function readerOf(source: ScrobbleSource): (payload: unknown, receivedAt: number) => Scrobble {
  switch (source) {
    case 'plex':
      return readPlex
    case 'jellyfin':
      return readJellyfin
    case 'emby':
      return readEmby
    case 'generic':
      return readGeneric
  }
}

/** The payload, and whether the body was read to its end. */
async function readPayload(
  request: Request,
  source: ScrobbleSource,
  maxBytes: number,
): Promise<BodyResult & { ended: boolean }> {
  const part = FORM_PART[source]
  if (part && isFormData(request.headers.get('content-type'))) {
    const read = await readFormPart(request, part, maxBytes)
    return read.ok ? { ...parseJson(read.bytes), ended: read.ended } : { ...read, ended: false }
  }
  if (!isJsonContentType(request.headers.get('content-type'), JSON_TYPES[source])) {
    const sent = [
      ...JSON_TYPES[source],
      ...(part ? [`multipart/form-data with a '${part}' part`] : []),
    ]
    return {
      ok: false,
      status: 400,
      detail: `This is not how ${SOURCE_NAMES[source]} sends a webhook: send ${sent.join(' or ')}.`,
      // Not read at all: the connection is closed rather than have the body read as a request.
      ended: false,
    }
  }
  const read = await readJsonBody(request, maxBytes)
  return { ...read, ended: read.ok || read.status !== 413 }
}

// Each issue at its JSON Pointer into the payload: `Metadata.Guid` is `/Metadata/Guid`.
const errorsOf = (issues: ValidationIssue[]) =>
  issues.map(({ path, message }) => ({ pointer: `/${path.split('.').join('/')}`, detail: message }))
