/**
 * `POST {base}/scrobble/{source}`: a media server's webhook logs the movie its user finished
 * watching. Each source's payload is read by its reader in `src/formats/`; this file reads the
 * body as that source sends it and answers as the contract says: 201 logged, 200 logged before
 * (the same delivery again), 204 nothing to log, 422 a finished movie without an IMDb id, 400
 * not the source's format; a rating (Plex's `media.rate`) rates the latest entry of its movie.
 */
import type { Catalog } from '../core/catalog'
import type { ValidationIssue } from '../core/errors'
import { type NewMovie, parseNewMovie } from '../core/movie'
import type { MovieLog } from '../core/movie-log'
import { localTimeOf } from '../formats/local-time'
import { imdbLinkOf } from '../formats/scrobble'
import { type ScrobbleSource, scrobbleSources } from '../formats/scrobble-sources'
import { type BodyResult, parseJson, readJsonBody } from './body'
import { etagOf } from './conditions'
import { isFormData, readFormPart } from './form-part'
import { problemReply } from './problem'
import { JSON_TYPE, jsonReply, type Reply } from './reply'
import { isJsonContentType, SCROBBLE_KEY_PREFIX } from './request'
import { matched } from './scrobble-match'
import { rateLatest } from './scrobble-rate'
import { oncePerWindow } from './scrobble-window'

export interface ScrobbleSettings {
  maxBodyBytes: number
  timeZone: string | undefined
  /** Where a finished movie without an IMDb id is looked for by its title and year. */
  catalog: Catalog | undefined
  /** The URL of a logged movie. */
  movieUrl: (id: string) => string
}

/** Logs the watch `request` reports from `source`, once per watch. */
export async function scrobble(
  log: MovieLog,
  request: Request,
  name: string,
  settings: ScrobbleSettings,
): Promise<Reply> {
  const source = scrobbleSources.find(name)
  if (!source) {
    const names = scrobbleSources.names()
    return problemReply(
      404,
      `No such scrobble source: use ${names.slice(0, -1).join(', ')} or ${names.at(-1)}.`,
    )
  }
  const receivedAt = Date.now()
  const body = await readPayload(request, source, settings.maxBodyBytes)
  // A body left unread (past the limit) cannot be followed by another request on its connection.
  const close: Record<string, string> = body.ended ? {} : { connection: 'close' }
  if (!body.ok) return problemReply(body.status, body.detail, close)
  const read = await matched(await source.read(body.value, receivedAt), settings.catalog)
  switch (read.kind) {
    case 'ignored':
      return { status: 204, headers: close, body: null }
    case 'rated':
      return rateLatest(log, read, close)
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
  const add = () =>
    log.addMovie(movie, {
      idempotencyKey: `${SCROBBLE_KEY_PREFIX}${source.name}:${read.imdbId}:${when}`,
      onReplay: () => {
        replayed = true
      },
    })
  const windowKey = `${SCROBBLE_KEY_PREFIX}window:${source.name}:${read.imdbId}`
  // A movie the log refuses claims no window: checked first, as the add would check it.
  if (read.sameWithinMs !== undefined) parseNewMovie(movie)
  const once =
    read.sameWithinMs === undefined
      ? { movie: await add(), replayed: false }
      : await oncePerWindow(log, windowKey, read.sameWithinMs, add)
  // The first report of this play is still being logged: nothing more to log.
  if (!once) return { status: 204, headers: close, body: null }
  const added = once.movie
  replayed ||= once.replayed
  return jsonReply(replayed ? 200 : 201, JSON.stringify(added), {
    ...close,
    ...(replayed ? {} : { location: settings.movieUrl(added.id) }),
    etag: etagOf(added),
  })
}

/** The payload, and whether the body was read to its end. */
async function readPayload(
  request: Request,
  source: ScrobbleSource,
  maxBytes: number,
): Promise<BodyResult & { ended: boolean }> {
  const part = source.formPart
  const types = source.contentTypes ?? [JSON_TYPE]
  if (part && isFormData(request.headers.get('content-type'))) {
    const read = await readFormPart(request, part, maxBytes)
    return read.ok ? { ...parseJson(read.bytes), ended: read.ended } : { ...read, ended: false }
  }
  if (!isJsonContentType(request.headers.get('content-type'), types)) {
    const sent = [...types, ...(part ? [`multipart/form-data with a '${part}' part`] : [])]
    return {
      ok: false,
      status: 400,
      detail: `This is not how ${source.label ?? source.name} sends a webhook: send ${sent.join(' or ')}.`,
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
