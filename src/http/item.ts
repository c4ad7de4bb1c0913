import type { MovieChanges } from '../core/changes'
import { MovieNotFoundError } from '../core/errors'
import type { MovieLog } from '../core/movie-log'
import { readJsonBody } from './body'
import { etagOf, noneMatchHits, parseIfMatch } from './conditions'
import { movieJson } from './movie-json'
import { errorReply, problemReply } from './problem'
import { jsonReply, type Reply } from './reply'
import { isJsonContentType, PATCH_TYPES } from './request'

// The problem PATCH meets through updateMovie, for GET and DELETE too: one type for one case.
const notFound = (id: string) => errorReply(new MovieNotFoundError(id))

/** `GET /movies/{id}`: the movie and its `ETag`; 304 when `If-None-Match` names it. */
export async function readMovie(log: MovieLog, request: Request, id: string): Promise<Reply> {
  const movie = await log.getMovie(id)
  if (!movie) return notFound(id)
  const etag = etagOf(movie)
  if (noneMatchHits(request.headers.get('if-none-match'), etag)) {
    return { status: 304, headers: { etag, vary: 'accept' }, body: null }
  }
  return jsonReply(200, movieJson(movie), { etag, vary: 'accept' })
}

/** `PATCH /movies/{id}`: a JSON merge patch of some fields; the whole movie back, new `ETag`. */
export async function updateMovie(
  log: MovieLog,
  request: Request,
  id: string,
  maxBodyBytes: number,
): Promise<Reply> {
  if (!isJsonContentType(request.headers.get('content-type'), PATCH_TYPES)) {
    return problemReply(415, `Send the changes as ${PATCH_TYPES.join(' or ')}.`, {
      'accept-patch': PATCH_TYPES.join(', '),
    })
  }
  const body = await readJsonBody(request, maxBodyBytes)
  if (!body.ok) {
    const close: Record<string, string> = body.status === 413 ? { connection: 'close' } : {}
    return problemReply(body.status, body.detail, close)
  }
  const ifMatch = parseIfMatch(request.headers.get('if-match'))
  // Any JSON: updateMovie checks it at run time and names every bad field.
  const movie = await log.updateMovie(id, body.value as MovieChanges, { ifMatch })
  return jsonReply(200, movieJson(movie), { etag: etagOf(movie) })
}

/** `DELETE /movies/{id}`: 204, or 404 when it was not there. */
export async function deleteMovie(log: MovieLog, request: Request, id: string): Promise<Reply> {
  const ifMatch = parseIfMatch(request.headers.get('if-match'))
  const deleted = await log.deleteMovie(id, { ifMatch })
  return deleted ? { status: 204, headers: {}, body: null } : notFound(id)
}
